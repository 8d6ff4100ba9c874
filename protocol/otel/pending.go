package otel

import "time"

// pendingAgent is an agent span that was mapped as a subagent run because
// a span above it had not come yet (live, an exporter sends each span
// when it ends, so an agent comes before the spans around it). When that
// span comes and no agent is above it after all, the agent was its run's
// own: its end ends the run.
type pendingAgent struct {
	thread, runKey, trace string
	end                   time.Time
	failed                bool
	errText               string
}

// maxPending bounds the agents waiting for the spans above them.
const maxPending = 1 << 12

// waitAbove notes that agent o, ended at at, waits for the span above it.
func (t *Translator) waitAbove(th *threadState, o *observation, at time.Time) {
	if o.pendingAbove == "" {
		return
	}
	if t.pending == nil {
		t.pending = newBounded[pendingAgent](maxPending)
	}
	t.pending.put(o.pendingAbove, pendingAgent{thread: th.id, runKey: o.runKey, trace: o.trace, end: at,
		failed: o.failed, errText: o.errText})
}

// settlePending looks again at the agents waiting for a span above them
// that has come now: one with an agent above it was a subagent run
// indeed; one whose spans above are all known and none an agent was its
// run's own, and its run, if still open, ends at the agent's end; one
// whose span above names another that has not come waits for that one.
func (t *Translator) settlePending() {
	if t.pending == nil {
		return
	}
	for _, key := range t.pending.keys() {
		info, ok := t.spans.get(key)
		if !ok {
			continue
		}
		p, _ := t.pending.get(key)
		t.pending.del(key)
		if info.role == roleAgent || t.agentAbove(key) {
			continue
		}
		if up, unknown := t.unknownAbove(key); unknown {
			t.pending.put(up, p)
			continue
		}
		th := t.threads[p.thread]
		if th == nil {
			continue
		}
		if r, ok := th.runs.get(p.runKey); ok {
			t.endRun(th, r, known(p.end), p.failed, p.errText)
		}
	}
}
