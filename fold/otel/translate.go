package otel

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentwatch/agentwatch/model"
)

// Options are how a Translator maps.
type Options struct {
	// UserKinds reports whether the user's --tool-kinds names a tool: such
	// a tool takes the user's category, not the builtin one (nil: none).
	UserKinds func(tool string) bool
}

// What a Translator remembers, at most: spans to place later spans by,
// traces' conversations, and each thread's tool calls.
const (
	maxSpans      = 1 << 16
	maxTraces     = 1 << 14
	maxThreadCall = 4096
)

// Translator turns OTLP data into AG-UI records, thread by thread. Add
// what arrived (one export request, or a whole file's), then Flush: what
// was added is mapped in the order of its own times, so spans and events
// that a batching exporter sent out of order land in their place. What
// arrives in a later Flush goes after: a late result still updates its
// step. Finish ends the runs still open (the end of a file). A Translator
// is pure and not safe for concurrent use; the same input gives the same
// records.
type Translator struct {
	opts      Options
	seq       uint64
	order     int
	threads   map[string]*threadState
	spans     *bounded[spanInfo]
	traceConv *bounded[string]
	// byTrace are the traces placed in a thread of their own (nothing
	// named their conversation when their first spans came).
	byTrace *bounded[struct{}]
	traces  []ptrace.Traces
	logs    []plog.Logs
	out     []model.Record
	// answered are the calls whose tool result or span is in the data
	// being flushed: their decision does not start them, the result does,
	// with its arguments and its own duration.
	answered map[string]bool
	// pending are the agents taken as subagent runs until the spans above
	// them come, by the key of the span they wait for (pending.go).
	pending *bounded[pendingAgent]
}

// New returns a Translator that has seen nothing.
func New(opts Options) *Translator {
	return &Translator{opts: opts, threads: map[string]*threadState{},
		spans: newBounded[spanInfo](maxSpans), traceConv: newBounded[string](maxTraces),
		byTrace: newBounded[struct{}](maxTraces)}
}

// AddTraces queues spans for the next Flush.
func (t *Translator) AddTraces(td ptrace.Traces) { t.traces = append(t.traces, td) }

// AddLogs queues log records for the next Flush.
func (t *Translator) AddLogs(ld plog.Logs) { t.logs = append(t.logs, ld) }

// Flush maps what was added since the last Flush and returns its records,
// numbered on from the last ones.
func (t *Translator) Flush() []model.Record {
	for _, td := range t.traces {
		t.learnSpans(td)
	}
	var obs []observation
	for _, td := range t.traces {
		obs = t.spanObservations(td, obs)
	}
	for _, ld := range t.logs {
		obs = t.logObservations(ld, obs)
	}
	t.traces, t.logs = nil, nil
	t.answered = map[string]bool{}
	for i := range obs {
		if o := &obs[i]; o.kind == kindTool && o.callID != "" {
			t.answered[o.callID] = true
		}
	}
	points := make([]point, 0, 2*len(obs))
	for i := range obs {
		o := &obs[i]
		switch o.kind {
		case kindAgent, kindTool:
			points = append(points, point{o: o, at: o.start}, point{o: o, at: o.end, end: true})
		default:
			points = append(points, point{o: o, at: o.end, end: true})
		}
	}
	slices.SortStableFunc(points, func(a, b point) int {
		return cmp.Or(compareTime(known(a.at), known(b.at)), cmp.Compare(a.o.order, b.o.order), compareBool(a.end, b.end))
	})
	for _, p := range points {
		t.apply(p)
	}
	t.settlePending()
	return t.take()
}

// Finish ends every run still open, at its last event's time, and returns
// those records. A file's telemetry has nothing more to say: a run left
// open would show as live.
func (t *Translator) Finish() []model.Record {
	ids := make([]string, 0, len(t.threads))
	for id := range t.threads {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		th := t.threads[id]
		if th.open != nil {
			t.finishRun(th, th.open.last, false, "")
		}
	}
	return t.take()
}

func (t *Translator) take() []model.Record {
	out := t.out
	t.out = nil
	return out
}

func (t *Translator) nextOrder() int {
	t.order++
	return t.order
}

// point is an observation's start or end, in time.
type point struct {
	o   *observation
	at  time.Time
	end bool
}

// known is t, or the zero time for the Unix epoch: OTLP's "not set".
func known(t time.Time) time.Time {
	if t.IsZero() || t.UnixNano() == 0 {
		return time.Time{}
	}
	return t
}

func compareTime(a, b time.Time) int { return a.Compare(b) }

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// threadState is what the translator keeps of one thread.
type threadState struct {
	id   string
	open *runState
	// done counts the segments of each run that ended (a run a late event
	// reopens continues as id~2, id~3…).
	done  map[string]int
	calls *bounded[*callState]
	// waiting are calls started and not answered, by tool name, for the
	// results that name no call id (older Claude Code versions).
	waiting map[string][]string
	// n numbers ids the telemetry does not give; runs numbers runs that
	// have no id of their own.
	n, runs  int
	lastUser string
}

// runState is the thread's open run.
type runState struct {
	key, id, trace string
	last           time.Time
	usage          []usage
	open           []string // tool calls started and not ended
	// subs are the subagent runs (nested agents) open, in the order they
	// started; subsDone those that ended in this run, whose ids AG-UI
	// does not let a run use again.
	subs     []string
	subsDone map[string]bool
}

// callState is how far a tool call's events went.
type callState struct {
	started, ended, resulted bool
	run                      string // the id of the run it started in
	// sub is the subagent run its start was tagged with: its other
	// events carry the same tag, as AG-UI's ownership rule asks.
	sub string
}

func (t *Translator) thread(p place) *threadState {
	// Mended as the events' text is (emit.go), so the records' thread and
	// their runs' threadId stay the same.
	id := strings.ToValidUTF8(p.id(), "\uFFFD")
	th := t.threads[id]
	if th == nil {
		th = &threadState{id: id, done: map[string]int{}, calls: newBounded[*callState](maxThreadCall), waiting: map[string][]string{}}
		t.threads[id] = th
	}
	return th
}

// next is a new number for ids the telemetry does not give.
func (th *threadState) next() string {
	th.n++
	return strconv.Itoa(th.n)
}

func (t *Translator) apply(p point) {
	o := p.o
	th := t.thread(o.place)
	at := known(p.at)
	switch o.kind {
	case kindAgent:
		if p.end {
			t.agentEnd(th, o, at)
		} else {
			t.agentStart(th, o, at)
		}
	case kindTool:
		if p.end {
			t.toolEnd(th, o, at)
		} else {
			t.toolStart(th, o, at)
		}
	case kindDecision:
		t.decide(th, o, at)
	case kindPrompt:
		t.prompt(th, o, at)
	case kindChat:
		t.chat(th, o, at)
	case kindError:
		t.apiError(th, o, at)
	}
}
