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
// tool call with no result stays without one), then RUN_FINISHED with the
// run's token usage, or RUN_ERROR when the agent failed.
func (t *Translator) finishRun(th *threadState, at time.Time, failed bool, why string) {
	r := th.open
	for i := len(r.phases) - 1; i >= 0; i-- {
		t.emit(th, at, map[string]any{"type": "STEP_FINISHED", "stepName": r.phases[i]})
	}
	for _, id := range r.open {
		t.emit(th, at, map[string]any{"type": "TOOL_CALL_END", "toolCallId": id})
		if c, ok := th.calls.get(id); ok {
			c.ended = true
		}
	}
	r.phases, r.open = nil, nil
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

// phaseName names a nested agent's phase: its name and span.
func phaseName(o *observation) string {
	return "agent " + o.name + " (" + o.span + ")"
}

// agentStart opens a run for an agent that no other agent of its run
// encloses, and a phase for one that another encloses.
func (t *Translator) agentStart(th *threadState, o *observation, at time.Time) {
	r := t.run(th, o, at)
	if o.nested {
		name := phaseName(o)
		if !slices.Contains(r.phases, name) {
			r.phases = append(r.phases, name)
			t.emit(th, at, map[string]any{"type": "STEP_STARTED", "stepName": name})
		}
	}
}

// agentEnd ends the run of an outermost agent (RUN_ERROR when its span
// failed), or the phase of a nested one. An agent whose run ended
// already (it came late) changes nothing.
func (t *Translator) agentEnd(th *threadState, o *observation, at time.Time) {
	if o.nested {
		r := t.run(th, o, at)
		name := phaseName(o)
		if !slices.Contains(r.phases, name) {
			// Its start was not seen in this run: a live batch had the
			// agent's work before the agent's span.
			t.emit(th, at, map[string]any{"type": "STEP_STARTED", "stepName": name})
		} else {
			r.phases = slices.DeleteFunc(r.phases, func(s string) bool { return s == name })
		}
		t.emit(th, at, map[string]any{"type": "STEP_FINISHED", "stepName": name})
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
