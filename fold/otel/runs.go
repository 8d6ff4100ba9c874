package otel

import (
	"slices"
	"strconv"
	"time"
)

// run returns the run o belongs to, open: the thread's open run when o
// names none or names it (or shares its trace); else the open run ends and
// o's run starts. A run that already ended and gets more (a late event)
// starts again as a continuation: id~2, whose parent is the part before.
func (t *Translator) run(th *threadState, o *observation, at time.Time) *runState {
	key := o.runKey
	if r := th.open; r != nil && !o.newRun {
		if key == "" || r.key == key || (o.trace != "" && r.trace == o.trace) {
			return r
		}
	}
	if key == "" {
		th.runs++
		key = "run-" + strconv.Itoa(th.runs)
	}
	if th.open != nil {
		t.finishRun(th, th.open.last, false, "")
	}
	id, parent := key, ""
	if n := th.done[key]; n > 0 {
		id = key + "~" + strconv.Itoa(n+1)
		parent = key
		if n > 1 {
			parent = key + "~" + strconv.Itoa(n)
		}
	}
	ev := map[string]any{"type": "RUN_STARTED", "threadId": th.id, "runId": id}
	if parent != "" {
		ev["parentRunId"] = parent
	}
	r := &runState{key: key, id: id, trace: o.trace, last: at}
	th.open = r
	t.emit(th, at, ev)
	return r
}

// finishRun ends the thread's open run: what it left open is closed (a
// tool call with no result stays without one, a subagent still running
// finishes), then RUN_FINISHED with the run's token usage, or RUN_ERROR
// when the agent failed.
func (t *Translator) finishRun(th *threadState, at time.Time, failed bool, why string) {
	r := th.open
	for i := len(r.subs) - 1; i >= 0; i-- {
		t.emit(th, at, map[string]any{"type": "SUBAGENT_FINISHED", "subagentRunId": r.subs[i]})
	}
	for _, id := range r.open {
		t.emit(th, at, map[string]any{"type": "TOOL_CALL_END", "toolCallId": id})
		if c, ok := th.calls.get(id); ok {
			c.ended = true
		}
	}
	r.subs, r.open = nil, nil
	if failed {
		if why == "" {
			why = "the agent failed"
		}
		ev := map[string]any{"type": "RUN_ERROR", "message": why}
		if u := usageList(r.usage); len(u) > 0 {
			ev["usage"] = u
		}
		t.emit(th, at, ev)
	} else {
		ev := map[string]any{"type": "RUN_FINISHED", "threadId": th.id, "runId": r.id}
		if u := usageList(r.usage); len(u) > 0 {
			ev["usage"] = u
		}
		t.emit(th, at, ev)
	}
	th.done[r.key]++
	th.open = nil
}

// agentStart opens a run for an agent that no other agent of its run
// encloses, and a subagent run for one that another encloses.
func (t *Translator) agentStart(th *threadState, o *observation, at time.Time) {
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
	r.subs = append(r.subs, o.span)
	t.emit(th, at, ev)
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
// failed). An agent whose run ended already (it came late) changes
// nothing.
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
		if r.subsDone == nil {
			r.subsDone = map[string]bool{}
		}
		r.subsDone[o.span] = true
		t.waitAbove(th, o, at)
		return
	}
	r := th.open
	mine := r != nil && (r.key == o.runKey || (o.trace != "" && r.trace == o.trace))
	if !mine {
		if th.done[o.runKey] > 0 {
			return
		}
		r = t.run(th, o, at)
	}
	t.finishRun(th, at, o.failed, o.errText)
}
