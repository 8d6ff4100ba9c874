package otel

import (
	"slices"
	"time"
)

// callID gives o a tool call id when its telemetry names none: the
// oldest call of the same tool still waiting for its result (a result
// event of an older Claude Code), else a new one.
func (t *Translator) callID(th *threadState, o *observation) {
	if o.callID != "" {
		return
	}
	if w := th.waiting[o.name]; len(w) > 0 && o.kind == kindTool {
		o.callID = w[0]
		return
	}
	o.callID = "call-" + th.next()
}

// later is the open run for what updates a step already shown: its own
// run when still open, else whichever is; a run of its own again only
// when none is.
func (t *Translator) later(th *threadState, o *observation, at time.Time) *runState {
	if th.open != nil {
		return th.open
	}
	return t.run(th, o, at)
}

// startCall opens a tool call (TOOL_CALL_START, with the builtin category
// and location of an agent's own tool), and closes its arguments when
// they are known or no more will come.
func (t *Translator) startCall(th *threadState, r *runState, o *observation, at time.Time, closeArgs bool) *callState {
	c := &callState{started: true, run: r.id, sub: r.tag(o.sub)}
	th.calls.put(o.callID, c)
	name := o.name
	if name == "" {
		name = "tool"
	}
	ev := map[string]any{"type": "TOOL_CALL_START", "toolCallId": o.callID, "toolCallName": name}
	if md := t.toolMetadata(o); md != nil {
		ev["metadata"] = md
	}
	t.emitAs(th, at, c.sub, ev)
	r.open = append(r.open, o.callID)
	th.waiting[o.name] = append(th.waiting[o.name], o.callID)
	if closeArgs || o.hasArgs {
		t.endArgs(th, r, c, o, at)
	}
	return c
}

// endArgs sends a call's arguments and TOOL_CALL_END, when the call is
// open in run r.
func (t *Translator) endArgs(th *threadState, r *runState, c *callState, o *observation, at time.Time) {
	if c.ended || !slices.Contains(r.open, o.callID) {
		return
	}
	if o.args != "" {
		t.emitAs(th, at, c.sub, map[string]any{"type": "TOOL_CALL_ARGS", "toolCallId": o.callID, "delta": o.args})
	}
	t.emitAs(th, at, c.sub, map[string]any{"type": "TOOL_CALL_END", "toolCallId": o.callID})
	c.ended = true
	r.open = slices.DeleteFunc(r.open, func(id string) bool { return id == o.callID })
}

// toolMetadata is what TOOL_CALL_START says of an agent's own tool: its
// category and location (tools.go), unless the user's --tool-kinds names
// the tool.
func (t *Translator) toolMetadata(o *observation) map[string]any {
	if !o.builtin || (t.opts.UserKinds != nil && t.opts.UserKinds(o.name)) {
		return nil
	}
	cat, ok := Builtin[o.name]
	if !ok {
		return nil
	}
	md := map[string]any{"category": string(cat)}
	if loc := location(o.name, o.args); loc != "" {
		md["location"] = loc
	}
	return md
}

// toolStart is a tool's start: its call opens (in its run) with its
// arguments, unless it was open already.
func (t *Translator) toolStart(th *threadState, o *observation, at time.Time) {
	t.callID(th, o)
	if c, ok := th.calls.get(o.callID); ok {
		if th.open != nil && o.hasArgs {
			t.endArgs(th, th.open, c, o, at)
		}
		return
	}
	t.startCall(th, t.run(th, o, at), o, at, true)
}

// toolEnd is a tool's result: TOOL_CALL_RESULT, failed or cancelled as
// the telemetry says. A call that has its result already is left as it is.
func (t *Translator) toolEnd(th *threadState, o *observation, at time.Time) {
	c, ok := th.calls.get(o.callID)
	if ok && c.resulted {
		return
	}
	r := t.later(th, o, at)
	if !ok {
		c = t.startCall(th, r, o, at, true)
	}
	t.endArgs(th, r, c, o, at)
	t.result(th, c, o, at)
}

// result sends a call's TOOL_CALL_RESULT.
func (t *Translator) result(th *threadState, c *callState, o *observation, at time.Time) {
	content := o.result
	md := map[string]any{}
	switch {
	case o.decision == "reject":
		md["status"] = "cancelled"
		md["decision"] = "reject"
		if o.source != "" {
			md["source"] = o.source
		}
		if content == "" {
			content = "[rejected"
			if o.source != "" {
				content += " · " + o.source
			}
			content += "]"
		}
	case o.failed:
		md["status"] = "failed"
		md["isError"] = true
		if o.errText != "" {
			md["error"] = o.errText
		}
		if content == "" && o.errText != "" {
			content = o.errText
		}
	}
	if content == "" {
		content = "[result not recorded]"
	}
	ev := map[string]any{"type": "TOOL_CALL_RESULT", "messageId": "result-" + o.callID, "toolCallId": o.callID,
		"role": "tool", "content": content}
	if len(md) > 0 {
		ev["metadata"] = md
	}
	t.emitAs(th, at, c.sub, ev)
	c.resulted = true
	th.waiting[o.name] = slices.DeleteFunc(th.waiting[o.name], func(id string) bool { return id == o.callID })
	if len(th.waiting[o.name]) == 0 {
		delete(th.waiting, o.name)
	}
}

// decide shows a tool decision like a permission answer (an activity of
// type "permission" naming the tool, the call, the decision and who made
// it) and opens the call, which runs from here; a refused call ends
// cancelled.
func (t *Translator) decide(th *threadState, o *observation, at time.Time) {
	if o.callID == "" {
		o.callID = "call-" + th.next()
	}
	c, ok := th.calls.get(o.callID)
	var r *runState
	if ok {
		r = t.later(th, o, at)
	} else {
		r = t.run(th, o, at)
	}
	content := map[string]any{"tool": o.name, "toolCallId": o.callID, "decision": o.decision}
	if o.source != "" {
		content["source"] = o.source
	}
	sub := r.tag(o.sub)
	if ok {
		sub = c.sub
	}
	t.emitAs(th, at, sub, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "decision-" + o.callID,
		"activityType": "permission", "content": content})
	if !ok {
		if t.answered[o.callID] && o.decision != "reject" {
			// Its result, in this batch, starts it with its arguments.
			return
		}
		c = t.startCall(th, r, o, at, o.decision == "reject")
	}
	if o.decision == "reject" && !c.resulted {
		t.endArgs(th, r, c, o, at)
		t.result(th, c, o, at)
	}
}
