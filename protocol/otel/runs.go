package otel

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

// run returns the run o belongs to, open: the thread's open run when o
// names none or names it (or shares its trace); else the open run makes
// way and o's run starts, or starts again when it ran before. AG-UI has
// one open run per thread, and telemetry comes in any order: something
// of a run that made way, or that ended, comes later than something of
// the next. It is shown in its own run, taken up again under its own id
// (the fold resumes a run whose RUN_STARTED names it again), never in a
// run made up for it: the runs are those that one request in order
// gives.
func (t *Translator) run(th *threadState, o *observation, at time.Time) *runState {
	key := o.runKey
	if r := th.open; r != nil && !o.newRun {
		if key == "" || r.key == key || (o.trace != "" && r.trace == o.trace) {
			th.cur = r
			return r
		}
	}
	if key == "" {
		th.runsMade++
		key = "run-" + strconv.Itoa(th.runsMade)
	}
	if th.open != nil {
		t.closeRun(th, false)
	}
	r, ok := th.runs.get(key)
	if !ok {
		r = &runState{key: key, id: key, trace: o.trace, last: at}
		th.runs.put(key, r)
	}
	t.openRun(th, r, at)
	th.cur = r
	return r
}

// openRun starts r, or starts it again: RUN_STARTED naming it, and the
// subagents that were running when it made way, started again.
func (t *Translator) openRun(th *threadState, r *runState, at time.Time) {
	th.open = r
	r.here = nil
	t.emit(th, at, map[string]any{"type": "RUN_STARTED", "threadId": th.id, "runId": r.id})
	paused := r.paused
	r.paused = nil
	for _, ev := range paused {
		t.sendSub(th, r, at, ev)
	}
}

// closeRun ends the thread's open run: what it left open is closed (a
// tool call with no result stays without one, a subagent still running
// finishes), then RUN_FINISHED with the run's token usage so far, or
// RUN_ERROR when its agent failed. A run its agent did not end ends at
// its last event. Unless final (its agent's end, or the telemetry's), the
// run only makes way and is taken up again when more of it comes, with
// the subagents that were running.
func (t *Translator) closeRun(th *threadState, final bool) {
	r := th.open
	at := r.last
	if r.ended {
		at = r.endAt
	}
	for i := len(r.subs) - 1; i >= 0; i-- {
		t.emit(th, at, map[string]any{"type": "SUBAGENT_FINISHED", "subagentRunId": r.subs[i]})
	}
	for _, id := range r.subs {
		if ev := r.started[id]; ev != nil && !final {
			// Still running: started again when the run is, parents first.
			r.paused = append(r.paused, ev)
		} else {
			r.markDone(id)
		}
	}
	for _, id := range r.open {
		t.emit(th, at, map[string]any{"type": "TOOL_CALL_END", "toolCallId": id})
		if c, ok := th.calls.get(id); ok {
			c.ended = true
		}
	}
	r.subs, r.open = nil, nil
	u := usageList(r.usage)
	if r.failed {
		why := r.why
		if why == "" {
			why = "the agent failed"
		}
		ev := map[string]any{"type": "RUN_ERROR", "message": why}
		if len(u) > 0 {
			ev["usage"] = u
		}
		t.emit(th, at, ev)
	} else {
		ev := map[string]any{"type": "RUN_FINISHED", "threadId": th.id, "runId": r.id}
		if len(u) > 0 {
			ev["usage"] = u
		}
		t.emit(th, at, ev)
	}
	th.open = nil
}

// endRun ends run r for good, as its agent (or the end of the telemetry)
// says: at, failed or not. An end that came already changes nothing.
func (t *Translator) endRun(th *threadState, r *runState, at time.Time, failed bool, why string) {
	if r.ended && th.open != r {
		return
	}
	if th.open != r {
		if th.open != nil {
			t.closeRun(th, false)
		}
		t.openRun(th, r, at)
	}
	r.ended, r.failed, r.why, r.endAt = true, failed, why, at
	if at.IsZero() || at.Before(r.last) {
		r.endAt = r.last
	}
	th.cur = r
	t.closeRun(th, true)
}

// settleRuns leaves open, once a request is mapped, the run that one
// request in order would leave open: the run of the thread's latest event,
// unless its agent ended it.
func (t *Translator) settleRuns(th *threadState) {
	var want *runState
	if r, ok := th.runs.get(th.lastRun); ok && !r.ended {
		want = r
	}
	if th.open == want {
		return
	}
	if th.open != nil {
		t.closeRun(th, false)
	}
	if want != nil {
		t.openRun(th, want, th.lastAt)
	}
}

// agentStart opens a run for an agent that no other agent of its run
// encloses, and a subagent run for one that another encloses.
func (t *Translator) agentStart(th *threadState, o *observation, at time.Time) {
	if r, ok := th.runs.get(o.runKey); ok && r.ended && !o.nested {
		return // its run ended already: the agent's span came twice
	}
	r := t.run(th, o, at)
	if o.nested {
		t.startSub(th, r, o, at)
	}
}

// startSub opens a nested agent's subagent run (SUBAGENT_STARTED, its id
// the agent's span id): its parent is the subagent that runs it
// (parentSubagentRunId), else the run itself; an agent called as a tool
// names that call (parentToolCallId). An agent already open, or ended,
// in this run is left as it is.
func (t *Translator) startSub(th *threadState, r *runState, o *observation, at time.Time) {
	if slices.Contains(r.subs, o.span) || r.subsDone[o.span] {
		return
	}
	name := o.name
	if name == "" {
		name = "agent"
	}
	ev := map[string]any{"type": "SUBAGENT_STARTED", "subagentRunId": o.span, "name": name}
	if p := r.tag(o.sub); p != "" {
		ev["parentSubagentRunId"] = p
	}
	if o.parentCall != "" {
		ev["parentToolCallId"] = o.parentCall
	}
	if o.desc != "" {
		ev["description"] = o.desc
	}
	t.sendSub(th, r, at, ev)
}

// sendSub sends a SUBAGENT_STARTED and notes the subagent open in r. AG-UI
// checks a parent subagent within the run since its RUN_STARTED: a parent
// that ran before the run made way is not named (its row still says who
// called the agent).
func (t *Translator) sendSub(th *threadState, r *runState, at time.Time, ev map[string]any) {
	id, _ := ev["subagentRunId"].(string)
	if p, _ := ev["parentSubagentRunId"].(string); p != "" && !r.here[p] {
		ev = maps.Clone(ev)
		delete(ev, "parentSubagentRunId")
	}
	if r.started == nil {
		r.started = map[string]map[string]any{}
	}
	r.started[id] = maps.Clone(ev)
	if r.here == nil {
		r.here = map[string]bool{}
	}
	r.here[id] = true
	r.subs = append(r.subs, id)
	t.emit(th, at, ev)
}

// markDone notes that subagent id ended in r.
func (r *runState) markDone(id string) {
	if r.subsDone == nil {
		r.subsDone = map[string]bool{}
	}
	r.subsDone[id] = true
	delete(r.started, id)
}

// tag is the subagent run id an event of subagent sub carries in run r:
// sub when it started in r, else none (the run's own agent). An event
// whose agent's span has not come yet is the run's.
func (r *runState) tag(sub string) string {
	if sub != "" && (slices.Contains(r.subs, sub) || r.subsDone[sub]) {
		return sub
	}
	return ""
}

// agentEnd ends the run of an outermost agent (RUN_ERROR when its span
// failed), or the subagent run of a nested one (SUBAGENT_ERROR when it
// failed). An agent whose end came already changes nothing.
func (t *Translator) agentEnd(th *threadState, o *observation, at time.Time) {
	if o.nested {
		r := t.run(th, o, at)
		if r.subsDone[o.span] {
			return
		}
		// Its start may not have been seen in this run: a live batch had
		// the agent's work before the agent's span.
		t.startSub(th, r, o, at)
		if o.failed {
			t.emit(th, at, map[string]any{"type": "SUBAGENT_ERROR", "subagentRunId": o.span, "message": o.errText})
		} else {
			t.emit(th, at, map[string]any{"type": "SUBAGENT_FINISHED", "subagentRunId": o.span})
		}
		r.subs = slices.DeleteFunc(r.subs, func(s string) bool { return s == o.span })
		r.markDone(o.span)
		t.waitAbove(th, o, at)
		return
	}
	if r, ok := th.runs.get(o.runKey); ok && r.ended {
		return
	}
	r := t.run(th, o, at)
	t.endRun(th, r, at, o.failed, o.errText)
}
