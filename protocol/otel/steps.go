package otel

import (
	"slices"
	"time"
)

// startCall opens a tool call in run r: TOOL_CALL_START (with the builtin
// category and location of an agent's own tool), and its arguments and
// TOOL_CALL_END when they are known or no more will come (closed). A call
// left open is pending until its arguments come; arguments learnt after
// the call closed come with the call started again (restart).
func (t *Translator) startCall(th *threadState, r *runState, o *observation, at time.Time, closed bool) *callState {
	c := &callState{started: true, run: r.key, sub: r.tag(o.sub)}
	th.calls.put(o.callID, c)
	t.sendCall(th, r, c, o, at, closed)
	return c
}

// sendCall sends a call's TOOL_CALL_START, and its arguments and
// TOOL_CALL_END when closed or the arguments are known.
func (t *Translator) sendCall(th *threadState, r *runState, c *callState, o *observation, at time.Time, closed bool) {
	name := o.name
	if name == "" {
		name = "tool"
	}
	ev := map[string]any{"type": "TOOL_CALL_START", "toolCallId": o.callID, "toolCallName": name}
	if md := t.toolMetadata(o); md != nil {
		ev["metadata"] = md
	}
	t.emitAs(th, at, c.sub, ev)
	c.ended = false
	r.open = append(r.open, o.callID)
	if o.args != "" {
		t.emitAs(th, at, c.sub, map[string]any{"type": "TOOL_CALL_ARGS", "toolCallId": o.callID, "delta": o.args})
		c.hasArgs = true
	}
	if closed || c.hasArgs {
		t.endCall(th, r, c, o.callID, at)
	}
}

// endCall sends TOOL_CALL_END for a call open in run r.
func (t *Translator) endCall(th *threadState, r *runState, c *callState, id string, at time.Time) {
	if c.ended || !slices.Contains(r.open, id) {
		return
	}
	t.emitAs(th, at, c.sub, map[string]any{"type": "TOOL_CALL_END", "toolCallId": id})
	c.ended = true
	r.open = slices.DeleteFunc(r.open, func(x string) bool { return x == id })
}

// restart gives a call started without its arguments (by its decision)
// the arguments its result brings: the call is started again with them,
// and with the location they name, so its label says what it ran.
func (t *Translator) restart(th *threadState, r *runState, c *callState, o *observation, at time.Time) {
	if !o.hasArgs || c.hasArgs {
		t.endCall(th, r, c, o.callID, at)
		return
	}
	t.endCall(th, r, c, o.callID, at)
	t.sendCall(th, r, c, o, at, true)
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
// arguments, unless its decision opened it already, which then learns
// the arguments.
func (t *Translator) toolStart(th *threadState, o *observation, at time.Time) {
	c, ok := th.calls.get(o.callID)
	if ok && (c.resulted || c.hasArgs || !o.hasArgs) {
		return
	}
	r := t.run(th, o, at)
	if ok {
		t.restart(th, r, c, o, at)
		return
	}
	t.startCall(th, r, o, at, true)
}

// toolEnd is a tool's result: TOOL_CALL_RESULT, failed or cancelled as
// the telemetry says. A call that has its result already is left as it
// is. A result that no decision came for (yet) waits for one (join.go).
func (t *Translator) toolEnd(th *threadState, o *observation, at time.Time) {
	c, ok := th.calls.get(o.callID)
	if ok && c.resulted {
		return
	}
	r := t.run(th, o, at)
	if !ok {
		c = t.startCall(th, r, o, at, true)
	} else {
		t.restart(th, r, c, o, at)
	}
	t.result(th, c, o, at)
	if !o.paired && o.fromLog {
		th.addHalf(half{named: o.named, callID: o.callID, tool: o.name, runKey: o.runKey, at: o.start})
	}
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
}

// decide shows a tool decision like a permission answer (an activity of
// type "permission" naming the tool, the call, the decision and who made
// it) and opens the call, which is pending from here until its result
// comes, unless its result opened it already or comes in this request
// (then the result opens it, with its arguments and its own duration); a
// refused call ends cancelled.
func (t *Translator) decide(th *threadState, o *observation, at time.Time) {
	c, ok := th.calls.get(o.callID)
	if ok && c.decided && (o.decision != "reject" || c.resulted) {
		return
	}
	r := t.run(th, o, at)
	sub := r.tag(o.sub)
	if ok {
		sub = c.sub
	}
	content := map[string]any{"tool": o.name, "toolCallId": o.callID, "decision": o.decision}
	if o.source != "" {
		content["source"] = o.source
	}
	t.emitAs(th, at, sub, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "decision-" + o.callID,
		"activityType": "permission", "content": content})
	if !ok {
		if o.paired && o.decision != "reject" {
			return
		}
		c = t.startCall(th, r, o, at, o.decision == "reject")
		if !o.paired && o.fromLog {
			th.addHalf(half{decision: true, named: o.named, callID: o.callID, tool: o.name, runKey: o.runKey, at: at})
		}
	}
	c.decided = true
	if o.decision == "reject" && !c.resulted {
		t.endCall(th, r, c, o.callID, at)
		t.result(th, c, o, at)
	}
}
