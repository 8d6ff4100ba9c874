package otel

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentwatch/agentwatch/internal/order"
	"github.com/agentwatch/agentwatch/model"
)

// Options are how a Translator maps.
type Options struct {
	// UserKinds reports whether the user's --tool-kinds names a tool: such
	// a tool takes the user's category, not the builtin one (nil: none).
	UserKinds func(tool string) bool
	// MaxThreads bounds the threads a Translator opens (0: no bound):
	// telemetry of a conversation new past it is left out, and counted
	// (LeftOut). Each thread costs what the translator remembers of it and
	// a fold on the screen, and a sender names as many conversations as
	// it likes.
	MaxThreads int
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
// arrives in a later Flush still lands in its place: a late result
// finishes its step, a late event is shown in the run it belongs to
// (which is taken up again for it), a tool decision and its result are
// one step whichever comes first, and a span waits while nothing says
// which conversation its trace is (held.go). Finish ends the runs still
// open (the end of a file). A Translator is pure and not safe for
// concurrent use; the same input gives the same records, and the same
// telemetry folds the same however it was cut into requests.
type Translator struct {
	opts      Options
	seq       uint64
	order     int
	threads   map[string]*threadState
	spans     *bounded[spanInfo]
	traceConv *bounded[string]
	// byTrace are the traces placed in a thread of their own (nothing
	// named their conversation before their root span came).
	byTrace *bounded[struct{}]
	// roots are the traces whose root span came.
	roots  *bounded[struct{}]
	traces []ptrace.Traces
	logs   []plog.Logs
	out    []model.Record
	// held are the spans waiting to be placed (held.go); newest is the
	// latest time the telemetry has told of, the clock they wait by.
	held   []heldSpan
	newest time.Time
	// pending are the agents taken as subagent runs until the spans above
	// them come, by the key of the span they wait for (pending.go).
	pending *bounded[pendingAgent]
	// leftOut counts the observations left out past MaxThreads.
	leftOut int
}

// LeftOut is how many spans and log records were left out because their
// conversation would have opened a thread past Options.MaxThreads.
func (t *Translator) LeftOut() int { return t.leftOut }

// withinThreads drops the observations whose thread is new once the
// translator has MaxThreads, counting them.
func (t *Translator) withinThreads(obs []observation) []observation {
	if t.opts.MaxThreads <= 0 {
		return obs
	}
	opened := map[string]bool{}
	kept := obs[:0]
	for _, o := range obs {
		id := threadID(o.place)
		if t.threads[id] == nil && !opened[id] {
			if len(t.threads)+len(opened) >= t.opts.MaxThreads {
				t.leftOut++
				continue
			}
			opened[id] = true
		}
		kept = append(kept, o)
	}
	return kept
}

// New returns a Translator that has seen nothing.
func New(opts Options) *Translator {
	return &Translator{opts: opts, threads: map[string]*threadState{},
		spans: newBounded[spanInfo](maxSpans), traceConv: newBounded[string](maxTraces),
		byTrace: newBounded[struct{}](maxTraces), roots: newBounded[struct{}](maxTraces)}
}

// AddTraces queues spans for the next Flush.
func (t *Translator) AddTraces(td ptrace.Traces) { t.traces = append(t.traces, td) }

// AddLogs queues log records for the next Flush.
func (t *Translator) AddLogs(ld plog.Logs) { t.logs = append(t.logs, ld) }

// Flush maps what was added since the last Flush and returns its records,
// numbered on from the last ones.
func (t *Translator) Flush() []model.Record {
	return t.flush(false)
}

// flush maps what was added and what waits; with all, every span still
// waiting is placed (the telemetry has nothing more to say).
func (t *Translator) flush(all bool) []model.Record {
	for _, td := range t.traces {
		t.learnSpans(td)
	}
	var obs []observation
	for _, td := range t.traces {
		forSpans(td, func(res pcommon.Map, sp ptrace.Span) { t.hold(res, sp) })
	}
	for _, ld := range t.logs {
		obs = t.logObservations(ld, obs)
	}
	t.traces, t.logs = nil, nil
	obs = t.withinThreads(t.release(obs, all))
	t.join(obs)
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
		return cmp.Or(compareTime(known(a.at), known(b.at)), cmp.Compare(a.o.kind.rank(), b.o.kind.rank()),
			cmp.Compare(a.o.order, b.o.order), order.Bool(a.end, b.end))
	})
	touched := map[*threadState]bool{}
	for _, p := range points {
		touched[t.apply(p)] = true
	}
	t.settlePending()
	for _, th := range sortedThreads(touched) {
		t.settleRuns(th)
	}
	return t.take()
}

// Finish places every span still waiting, ends every run still open, at
// its last event's time, and returns those records. A file's telemetry
// has nothing more to say: a run left open would show as live.
func (t *Translator) Finish() []model.Record {
	out := t.flush(true)
	ids := make([]string, 0, len(t.threads))
	for id := range t.threads {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		th := t.threads[id]
		if r := th.open; r != nil {
			t.endRun(th, r, r.last, r.failed, r.why)
		}
	}
	return append(out, t.take()...)
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

// sortedThreads are the threads of a set, by id, so that what is done to
// each comes out in the same order every time.
func sortedThreads(set map[*threadState]bool) []*threadState {
	out := make([]*threadState, 0, len(set))
	for th := range set {
		if th != nil {
			out = append(out, th)
		}
	}
	slices.SortFunc(out, func(a, b *threadState) int { return strings.Compare(a.id, b.id) })
	return out
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

// threadState is what the translator keeps of one thread.
type threadState struct {
	id   string
	open *runState
	// runs are the thread's runs by key, ended or not: a late event takes
	// its run up again.
	runs  *bounded[*runState]
	calls *bounded[*callState]
	// halves are the tool decisions that wait for their result and the
	// results that came without a decision, for calls whose telemetry
	// names no call id (join.go).
	halves []half
	// runsMade numbers the runs that have no id of their own.
	runsMade int
	// lastAt is the time of the thread's latest event and lastRun the run
	// it happened in: the run left open once a request is mapped, as it
	// would be had everything come in one request.
	lastAt  time.Time
	lastRun string
	// cur is the run the point being mapped went to.
	cur *runState
	// shown are the ids of the messages and rows sent, so that telemetry
	// an exporter sent twice shows once.
	shown *bounded[struct{}]
}

// runState is one of the thread's runs.
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
	// started are the SUBAGENT_STARTED events of the subagents not ended,
	// paused those of the subagents that were running when the run made
	// way (started again with it), here the subagents started since the
	// run's last RUN_STARTED.
	started map[string]map[string]any
	paused  []map[string]any
	here    map[string]bool
	// ended says the run's own agent ended it, failed when failed says,
	// why; a run that only made way for another is taken up again when
	// something of it comes.
	ended, failed bool
	why           string
	endAt         time.Time
	// users are the user texts shown in the run: every model call repeats
	// the conversation, and a text is shown once.
	users map[string]bool
}

// callState is how far a tool call's events went.
type callState struct {
	started, ended, resulted bool
	// hasArgs says its arguments were sent; decided that its decision
	// was shown.
	hasArgs, decided bool
	run              string // the key of the run it started in
	// sub is the subagent run its start was tagged with: its other
	// events carry the same tag, as AG-UI's ownership rule asks.
	sub string
}

// Most runs and shown ids a thread remembers.
const (
	maxThreadRuns  = 4096
	maxThreadShown = 1 << 14
)

func (t *Translator) thread(p place) *threadState {
	id := threadID(p)
	th := t.threads[id]
	if th == nil {
		th = &threadState{id: id, runs: newBounded[*runState](maxThreadRuns), calls: newBounded[*callState](maxThreadCall),
			shown: newBounded[struct{}](maxThreadShown)}
		t.threads[id] = th
	}
	return th
}

// threadID is the id of p's thread, mended as the events' text is
// (emit.go), so the records' thread and their runs' threadId stay the
// same.
func threadID(p place) string { return strings.ToValidUTF8(p.id(), "\uFFFD") }

// apply maps one point and returns the thread it went to.
func (t *Translator) apply(p point) *threadState {
	o := p.o
	th := t.thread(o.place)
	at := known(p.at)
	if o.kind != kindAgent && o.kind != kindTool && !th.fresh("seen-"+o.digest()) {
		// Sent twice (an exporter's retry of a request that went
		// through): shown once.
		return th
	}
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
	if r := th.cur; r != nil && !at.IsZero() && (at.After(th.lastAt) || at.Equal(th.lastAt) && r.key > th.lastRun) {
		th.lastAt, th.lastRun = at, r.key
	}
	th.cur = nil
	return th
}
