// Package loggen generates realistic AG-UI 1.0 event logs for benchmarks
// and tests: what a coding agent sends while it works, several runs of one
// thread (Generate) or of many threads (GenerateThreads, ThreadFiles), each
// run with reasoning, streamed text, tool calls of every category (some
// returning screenshots), state updates, phases and custom events.
//
// The logs are valid: every event passes the reference verifier's rules and
// every state patch applies, so a fold reports no diagnostic and no warning
// on them. They are deterministic: the same size and seed give the same
// bytes.
package loggen

import (
	"bytes"
	"math/rand/v2"
	"strconv"
)

// Generate returns a JSON Lines log of about n events (within a few dozen
// for any n of a few hundred or more), the same bytes for the same n and seed.
//
// The mix follows real agent runs: about 1 run per 12,500 events (later
// runs name the previous one as parentRunId and echo the user's messages in
// their input), and per agent turn a reasoning span, a text message streamed
// in 3–40 byte deltas, and tool calls whose arguments stream as JSON
// fragments, with metadata {category, location}; about 5% of tool results
// carry a PNG screenshot as an image part. The state is snapshot once per
// run and patched about every 50 events.
func Generate(n int, seed int64) []byte {
	return generateOne(n, seed).out
}

// generateOne writes Generate's log and returns the generator, whose spans
// say where each run is.
func generateOne(n int, seed int64) *gen {
	g := newGen(n, seed)
	g.thread = g.uuid()
	runs := runCount(n)
	per := n / runs
	parent := ""
	for r := range runs {
		budget := per
		if r == runs-1 {
			budget = n - g.n // the last run takes up what earlier ones left
		}
		parent = g.run(parent, budget)
	}
	return g
}

func newGen(n int, seed int64) *gen {
	g := &gen{
		rng: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15)),
		ts:  1_760_000_000_000,
	}
	g.out = make([]byte, 0, n*170)
	return g
}

// GenerateArray returns the log Generate returns for n and seed as one
// JSON array, the AG-UI serialization format, one event per line.
func GenerateArray(n int, seed int64) []byte {
	return ToArray(Generate(n, seed))
}

// ToArray turns a JSON Lines log into a JSON array of the same events.
func ToArray(jsonl []byte) []byte {
	body := bytes.TrimRight(jsonl, "\n")
	out := make([]byte, 0, len(body)+bytes.Count(body, []byte{'\n'})+4)
	out = append(out, "[\n"...)
	for len(body) > 0 {
		line, rest, more := bytes.Cut(body, []byte{'\n'})
		out = append(out, line...)
		if more {
			out = append(out, ",\n"...)
		}
		body = rest
	}
	return append(out, "\n]\n"...)
}

// runCount is how many runs a log of n events has: one per 12,500 events,
// at least one, at most 16, and at least three for logs big enough to hold
// three short runs, so small test logs still have a run tree.
func runCount(n int) int {
	runs := n / 12_500
	if small := min(3, n/400); runs < small {
		runs = small
	}
	return max(1, min(16, runs))
}

// gen writes one log. Events are written by hand rather than marshalled so
// that `type` comes first and the field order is the one real producers use.
type gen struct {
	rng    *rand.Rand
	out    []byte
	n      int   // events written
	ts     int64 // timestamp of the last event, ms
	thread string

	// The state document's counters, so every patch is one that applies.
	inState    bool // a STATE_SNAPSHOT of this run was sent; deltas may follow
	sinceDelta int
	deltaEvery int
	progress   int
	turn       int
	files      int

	users []userMessage

	// minCalls is how many tool calls a run makes at the least, whatever
	// its budget; calls counts the current run's.
	minCalls int
	calls    int

	spans []span // where each run's events are in out, in order
}

type userMessage struct{ id, text string }

// span is one run's events: out[lo:hi], all of thread.
type span struct {
	thread string
	lo, hi int
}

// run writes one whole run of about budget events and returns its runId.
func (g *gen) run(parent string, budget int) string {
	start, from := g.n, len(g.out)
	g.calls = 0
	runID := g.uuid()
	g.users = append(g.users, userMessage{id: g.uuid(), text: g.prompt()})
	g.runStarted(runID, parent)
	g.stateSnapshot()
	// The final answer and RUN_FINISHED take about 40 events.
	for g.n-start < budget-60 || g.calls < g.minCalls {
		g.turnEvents()
	}
	left := budget - (g.n - start) - 5
	g.step("respond", func() {
		g.textMessage(g.uuid(), max(3, min(left, 60)))
	})
	g.inState = false // no delta may follow RUN_FINISHED
	g.begin("RUN_FINISHED")
	g.str("threadId", g.thread)
	g.str("runId", runID)
	g.finish(g.gap(5, 50))
	g.spans = append(g.spans, span{thread: g.thread, lo: from, hi: len(g.out)})
	// The user reads the answer and writes the next prompt.
	g.ts += int64(g.gap(5_000, 90_000))
	return runID
}

// turnEvents writes one agent turn: think, say something, call tools.
func (g *gen) turnEvents() {
	g.turn++
	if g.rng.IntN(10) < 7 {
		g.step("plan", func() { g.reasoning(5 + g.rng.IntN(36)) })
	}
	g.step("act", func() {
		parent := g.uuid()
		if g.rng.IntN(10) < 7 {
			g.textMessage(parent, 3+g.rng.IntN(58))
		}
		calls := 0
		if g.rng.IntN(100) < 85 {
			calls = 1 + g.rng.IntN(3)
		}
		// Parallel calls: all arguments stream first, the results follow.
		pending := make([]toolCall, 0, calls)
		for range calls {
			pending = append(pending, g.toolCall(parent))
		}
		for _, tc := range pending {
			g.toolResult(tc)
		}
	})
	if g.rng.IntN(100) < 15 {
		g.custom()
	}
}

// step wraps body in STEP_STARTED/STEP_FINISHED.
func (g *gen) step(name string, body func()) {
	g.begin("STEP_STARTED")
	g.str("stepName", name)
	g.finish(g.gap(1, 10))
	body()
	g.begin("STEP_FINISHED")
	g.str("stepName", name)
	g.finish(g.gap(1, 10))
}

func (g *gen) runStarted(runID, parent string) {
	g.begin("RUN_STARTED")
	g.str("threadId", g.thread)
	g.str("runId", runID)
	if parent != "" {
		g.str("parentRunId", parent)
	}
	g.key("input")
	g.out = append(g.out, '{')
	g.out = appendString(g.out, "threadId")
	g.out = append(g.out, ':')
	g.out = appendString(g.out, g.thread)
	g.out = append(g.out, `,"runId":`...)
	g.out = appendString(g.out, runID)
	if parent != "" {
		g.out = append(g.out, `,"parentRunId":`...)
		g.out = appendString(g.out, parent)
	}
	// Clients resend the conversation; the user's side of it is echoed here.
	g.out = append(g.out, `,"messages":[`...)
	for i, u := range g.users {
		if i > 0 {
			g.out = append(g.out, ',')
		}
		g.out = append(g.out, `{"id":`...)
		g.out = appendString(g.out, u.id)
		g.out = append(g.out, `,"role":"user","content":`...)
		g.out = appendString(g.out, u.text)
		g.out = append(g.out, '}')
	}
	g.out = append(g.out, `],"tools":`...)
	g.out = append(g.out, toolDeclarations...)
	g.out = append(g.out, `,"context":[],"forwardedProps":{}}`...)
	g.finish(g.gap(10, 200))
}

func (g *gen) stateSnapshot() {
	g.begin("STATE_SNAPSHOT")
	g.key("snapshot")
	g.out = append(g.out, `{"status":"working","phase":"plan","turn":`...)
	g.out = strconv.AppendInt(g.out, int64(g.turn), 10)
	g.out = append(g.out, `,"progress":`...)
	g.out = strconv.AppendInt(g.out, int64(g.progress), 10)
	g.out = append(g.out, `,"filesTouched":`...)
	g.out = strconv.AppendInt(g.out, int64(g.files), 10)
	g.out = append(g.out, `,"lastTool":null,"model":"claude-sonnet-4-5"}`...)
	g.finish(g.gap(1, 20))
	g.inState = true
	g.sinceDelta = 0
	g.deltaEvery = 45 + g.rng.IntN(11)
}

// stateDelta patches members the snapshot has, with add and replace.
func (g *gen) stateDelta() {
	g.inState = false // no delta inside a delta
	g.progress = min(100, g.progress+1+g.rng.IntN(3))
	g.begin("STATE_DELTA")
	g.key("delta")
	g.out = append(g.out, `[{"op":"replace","path":"/progress","value":`...)
	g.out = strconv.AppendInt(g.out, int64(g.progress), 10)
	g.out = append(g.out, `},{"op":"replace","path":"/turn","value":`...)
	g.out = strconv.AppendInt(g.out, int64(g.turn), 10)
	g.out = append(g.out, '}')
	switch g.rng.IntN(3) {
	case 0:
		g.out = append(g.out, `,{"op":"add","path":"/lastTool","value":`...)
		g.out = appendString(g.out, toolNames[categories[g.rng.IntN(len(categories))]])
		g.out = append(g.out, '}')
	case 1:
		g.out = append(g.out, `,{"op":"replace","path":"/phase","value":`...)
		g.out = appendString(g.out, pick(g.rng, []string{"plan", "act", "verify", "respond"}))
		g.out = append(g.out, '}')
	}
	g.out = append(g.out, ']')
	g.finish(g.gap(1, 5))
	g.inState = true
	g.sinceDelta = 0
	g.deltaEvery = 45 + g.rng.IntN(11)
}

func (g *gen) reasoning(deltas int) {
	span, msg := g.uuid(), g.uuid()
	g.begin("REASONING_START")
	g.str("messageId", span)
	g.finish(g.gap(50, 800))
	g.begin("REASONING_MESSAGE_START")
	g.str("messageId", msg)
	g.str("role", "reasoning")
	g.finish(g.gap(1, 5))
	for _, d := range g.split(g.prose(deltas*20), 3, 40) {
		g.begin("REASONING_MESSAGE_CONTENT")
		g.str("messageId", msg)
		g.str("delta", d)
		g.finish(g.gap(5, 40))
	}
	g.begin("REASONING_MESSAGE_END")
	g.str("messageId", msg)
	g.finish(g.gap(1, 5))
	g.begin("REASONING_END")
	g.str("messageId", span)
	g.finish(g.gap(1, 5))
}

// textMessage streams an assistant message of about deltas content events.
func (g *gen) textMessage(id string, deltas int) {
	g.begin("TEXT_MESSAGE_START")
	g.str("messageId", id)
	g.str("role", "assistant")
	g.finish(g.gap(50, 600))
	for _, d := range g.split(g.prose(deltas*20), 3, 40) {
		g.begin("TEXT_MESSAGE_CONTENT")
		g.str("messageId", id)
		g.str("delta", d)
		g.finish(g.gap(5, 40))
	}
	g.begin("TEXT_MESSAGE_END")
	g.str("messageId", id)
	g.finish(g.gap(1, 10))
}

// toolCall is a call whose arguments have streamed and whose result is due.
type toolCall struct {
	id       string
	category string
	location string
}

func (g *gen) toolCall(parent string) toolCall {
	cat := g.category()
	args, loc := g.arguments(cat)
	tc := toolCall{id: g.callID(), category: cat, location: loc}
	g.begin("TOOL_CALL_START")
	g.str("toolCallId", tc.id)
	g.str("toolCallName", toolNames[cat])
	g.str("parentMessageId", parent)
	g.key("metadata")
	g.out = append(g.out, `{"category":`...)
	g.out = appendString(g.out, cat)
	if loc != "" {
		g.out = append(g.out, `,"location":`...)
		g.out = appendString(g.out, loc)
	}
	g.out = append(g.out, '}')
	g.finish(g.gap(20, 300))
	for _, d := range g.split(args, 3, 40) {
		g.begin("TOOL_CALL_ARGS")
		g.str("toolCallId", tc.id)
		g.str("delta", d)
		g.finish(g.gap(5, 40))
	}
	g.begin("TOOL_CALL_END")
	g.str("toolCallId", tc.id)
	g.finish(g.gap(1, 20))
	if cat == "edit" || cat == "move" || cat == "delete" {
		g.files++
	}
	g.calls++
	return tc
}

func (g *gen) toolResult(tc toolCall) {
	// The tool runs: from a few milliseconds (think) to seconds (commands).
	gap := g.gap(20, 400)
	if tc.category == "execute" || tc.category == "fetch" {
		gap = g.gap(300, 8_000)
	}
	g.begin("TOOL_CALL_RESULT")
	g.str("messageId", g.uuid())
	g.str("toolCallId", tc.id)
	g.key("content")
	if g.rng.IntN(100) < 5 {
		g.out = append(g.out, `[{"type":"text","text":`...)
		g.out = appendString(g.out, "Screenshot after "+toolNames[tc.category]+" "+tc.location)
		g.out = append(g.out, `},{"type":"image","source":{"type":"data","mimeType":"image/png","value":"`...)
		g.out = g.screenshot(g.out)
		g.out = append(g.out, `"}}]`...)
	} else {
		g.out = appendString(g.out, g.result(tc))
	}
	g.str("role", "tool")
	if tc.category == "execute" {
		code := 0
		if g.rng.IntN(10) == 0 {
			code = 1
		}
		g.key("metadata")
		g.out = append(g.out, `{"exitCode":`...)
		g.out = strconv.AppendInt(g.out, int64(code), 10)
		g.out = append(g.out, '}')
	}
	g.finish(gap)
}

func (g *gen) custom() {
	g.begin("CUSTOM")
	g.str("name", "usage")
	g.key("value")
	g.out = append(g.out, `{"inputTokens":`...)
	g.out = strconv.AppendInt(g.out, int64(2_000+g.rng.IntN(150_000)), 10)
	g.out = append(g.out, `,"outputTokens":`...)
	g.out = strconv.AppendInt(g.out, int64(50+g.rng.IntN(4_000)), 10)
	g.out = append(g.out, `,"cacheReadTokens":`...)
	g.out = strconv.AppendInt(g.out, int64(g.rng.IntN(120_000)), 10)
	g.out = append(g.out, '}')
	g.finish(g.gap(1, 10))
}
