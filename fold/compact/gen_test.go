package compact_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"

	"github.com/go-json-experiment/json"
)

// The generator writes logs that hit the reference's faults: text messages
// that overlap (and end in another order than they started), parallel tool
// calls whose ENDs arrive in reverse order, reasoning interleaved with both,
// state snapshots and deltas, and runs that end (RUN_ERROR or RUN_FINISHED)
// while streams are still open. Same seed, same log.

// genScenario picks what a generated log stresses.
type genScenario int

const (
	genMixed       genScenario = iota // everything, randomly interleaved
	genOverlapText                    // two or three text messages at once
	genParallelTools
	genReasoning
	genRunEndsOpen // runs end with streams open (RUN_ERROR or RUN_FINISHED)
)

var genScenarios = []struct {
	name string
	sc   genScenario
}{
	{"mixed", genMixed}, {"overlap-text", genOverlapText}, {"parallel-tools", genParallelTools},
	{"reasoning", genReasoning}, {"run-ends-open", genRunEndsOpen},
}

// actor is one stream being written: its events still to come.
type actor struct{ events []map[string]any }

type generator struct {
	rnd     *rand.Rand
	sc      genScenario
	out     []map[string]any
	n       int // ids
	texts   []string
	results []map[string]any
	state   bool // a snapshot was sent this run
}

// genLog returns a JSON array of events.
func genLog(sc genScenario, seed uint64) []byte {
	g := &generator{rnd: rand.New(rand.NewPCG(seed, uint64(sc)+1)), sc: sc}
	runs := 1 + g.rnd.IntN(3)
	for i := range runs {
		g.run(i)
	}
	// One event per line, "type" first, so that the files read and diff well.
	var b strings.Builder
	b.WriteString("[")
	for i, ev := range g.out {
		if i > 0 {
			b.WriteString(",\n")
		}
		typ, _ := json.Marshal(ev["type"])
		rest := maps.Clone(ev)
		delete(rest, "type")
		more, err := json.Marshal(rest, json.Deterministic(true))
		if err != nil {
			panic(err)
		}
		b.WriteString(`{"type":` + string(typ))
		if len(more) > 2 {
			b.WriteString("," + string(more[1:len(more)-1]))
		}
		b.WriteString("}")
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

func (g *generator) id(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

func (g *generator) emit(ev map[string]any) { g.out = append(g.out, ev) }

func (g *generator) run(i int) {
	g.emit(map[string]any{"type": "RUN_STARTED", "threadId": "t", "runId": fmt.Sprintf("r%d", i)})
	g.state = false
	if g.rnd.IntN(2) == 0 {
		g.emit(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"n": 0, "run": i}})
		g.state = true
	}
	var actors []*actor
	spawns := 2 + g.rnd.IntN(4)
	endOpen := g.sc == genRunEndsOpen || (g.sc == genMixed && g.rnd.IntN(3) == 0)
	steps := 0
	for {
		steps++
		if spawns > 0 && (len(actors) == 0 || len(actors) < 3 && g.rnd.IntN(3) == 0) {
			actors = append(actors, g.spawn()...)
			spawns--
		}
		if len(actors) == 0 {
			break
		}
		if endOpen && steps > 6 && g.rnd.IntN(6) == 0 {
			break // the run ends mid-stream
		}
		g.noise()
		k := g.pick(actors)
		a := actors[k]
		g.emit(a.events[0])
		a.events = a.events[1:]
		if len(a.events) == 0 {
			actors = append(actors[:k], actors[k+1:]...)
		}
	}
	for _, r := range g.results {
		g.emit(r)
	}
	g.results = nil
	if endOpen && (len(actors) > 0 || g.rnd.IntN(2) == 0) {
		if g.rnd.IntN(2) == 0 {
			g.emit(map[string]any{"type": "RUN_ERROR", "message": "aborted", "code": "abort"})
		} else {
			g.emit(map[string]any{"type": "RUN_FINISHED", "threadId": "t", "runId": fmt.Sprintf("r%d", i)})
		}
		return
	}
	g.emit(map[string]any{"type": "RUN_FINISHED", "threadId": "t", "runId": fmt.Sprintf("r%d", i)})
}

// pick chooses the next actor to advance. Parallel tool calls and
// overlapping text favour the newest, so streams end in reverse order.
func (g *generator) pick(actors []*actor) int {
	switch g.sc {
	case genParallelTools, genOverlapText:
		if g.rnd.IntN(4) != 0 {
			return len(actors) - 1
		}
	}
	return g.rnd.IntN(len(actors))
}

// noise sends, now and then, an event that is no stream's: CUSTOM, a state
// delta, a step.
func (g *generator) noise() {
	switch g.rnd.IntN(10) {
	case 0:
		g.emit(map[string]any{"type": "CUSTOM", "name": "tick", "value": g.n})
	case 1:
		if g.state {
			g.emit(map[string]any{"type": "STATE_DELTA", "delta": []any{map[string]any{"op": "replace", "path": "/n", "value": g.n}}})
		} else {
			g.emit(map[string]any{"type": "STATE_DELTA", "delta": []any{map[string]any{"op": "add", "path": fmt.Sprintf("/k%d", g.n), "value": true}}})
		}
	case 2:
		name := g.id("step")
		g.emit(map[string]any{"type": "STEP_STARTED", "stepName": name})
		g.emit(map[string]any{"type": "STEP_FINISHED", "stepName": name})
	}
}

func (g *generator) spawn() []*actor {
	kind := g.rnd.IntN(3)
	switch g.sc {
	case genOverlapText:
		kind = 0
		if g.rnd.IntN(4) == 0 {
			kind = 2
		}
	case genParallelTools:
		return g.parallelTools()
	case genReasoning:
		kind = []int{0, 2, 2}[g.rnd.IntN(3)]
	}
	switch kind {
	case 0:
		return []*actor{g.text()}
	case 1:
		return []*actor{g.tool(g.parent())}
	}
	return []*actor{g.reasoning()}
}

func (g *generator) words(n int) []string {
	vocab := []string{"the ", "log ", "folds ", "to ", "a ", "message ", "and ", "state ", "tool ", "call "}
	out := make([]string, n)
	for i := range out {
		out[i] = vocab[g.rnd.IntN(len(vocab))]
	}
	return out
}

func (g *generator) text() *actor {
	id := g.id("m")
	g.texts = append(g.texts, id)
	a := &actor{}
	start := map[string]any{"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}
	if g.rnd.IntN(3) == 0 {
		start["metadata"] = map[string]any{"model": "m1"}
	}
	a.events = append(a.events, start)
	for i, w := range g.words(1 + g.rnd.IntN(5)) {
		c := map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": w, "timestamp": 1000 + g.n*10 + i}
		if g.rnd.IntN(5) == 0 {
			c["metadata"] = map[string]any{"chunk": i}
		}
		a.events = append(a.events, c)
	}
	a.events = append(a.events, map[string]any{"type": "TEXT_MESSAGE_END", "messageId": id})
	return a
}

// parent is a text message started earlier, or none.
func (g *generator) parent() string {
	if len(g.texts) == 0 || g.rnd.IntN(2) == 0 {
		return ""
	}
	return g.texts[g.rnd.IntN(len(g.texts))]
}

func (g *generator) tool(parent string) *actor {
	id := g.id("c")
	a := &actor{}
	start := map[string]any{"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": "f" + id}
	if parent != "" {
		start["parentMessageId"] = parent
	}
	a.events = append(a.events, start)
	args := fmt.Sprintf(`{"q":%d,"w":"%s"}`, g.n, strings.Join(g.words(2), ""))
	for len(args) > 0 {
		k := min(len(args), 1+g.rnd.IntN(8))
		a.events = append(a.events, map[string]any{"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": args[:k]})
		args = args[k:]
	}
	a.events = append(a.events, map[string]any{"type": "TOOL_CALL_END", "toolCallId": id})
	g.results = append(g.results, map[string]any{"type": "TOOL_CALL_RESULT", "messageId": "res-" + id, "toolCallId": id, "content": "ok " + id})
	return a
}

// parallelTools starts two to four calls on one parent at once: their
// STARTs come first, in order; the newest advances most, so the ENDs tend
// to arrive in reverse order.
func (g *generator) parallelTools() []*actor {
	parent := g.parent()
	n := 2 + g.rnd.IntN(3)
	var out []*actor
	for range n {
		a := g.tool(parent)
		g.emit(a.events[0])
		a.events = a.events[1:]
		out = append(out, a)
	}
	return out
}

func (g *generator) reasoning() *actor {
	span := g.id("rs")
	id := g.id("rm")
	a := &actor{}
	a.events = append(a.events,
		map[string]any{"type": "REASONING_START", "messageId": span},
		map[string]any{"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"})
	for _, w := range g.words(1 + g.rnd.IntN(4)) {
		a.events = append(a.events, map[string]any{"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": w})
	}
	a.events = append(a.events,
		map[string]any{"type": "REASONING_MESSAGE_END", "messageId": id},
		map[string]any{"type": "REASONING_END", "messageId": span})
	return a
}
