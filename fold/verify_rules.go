package fold

import (
	"strings"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// openAtFinish is rule 11: RUN_FINISHED with steps, messages, reasoning,
// tool calls or subagents still open (checked in that order).
func (v *verifyState) openAtFinish() *violation {
	var parts []string
	for _, so := range v.Steps {
		for _, n := range so.Names {
			if so.Owner.Has {
				n = say("%s (subagent '%s')", n, so.Owner.ID)
			}
			parts = append(parts, n)
		}
	}
	if len(parts) > 0 {
		return fail(RuleFinishOpen, "Cannot send 'RUN_FINISHED' while steps are still active: %s", strings.Join(parts, ", "))
	}
	for _, open := range []struct {
		ids  []string
		what string
	}{
		{v.Messages, "text messages"},
		{v.Reasoning, "reasoning messages"},
		{v.Spans, "reasoning spans"},
		{v.Tools, "tool calls"},
		{v.Subagents, "subagents"},
	} {
		if len(open.ids) > 0 {
			return fail(RuleFinishOpen, "Cannot send 'RUN_FINISHED' while %s are still active: %s", open.what, strings.Join(open.ids, ", "))
		}
	}
	return nil
}

// checkMessageNulls is rule 12 for messages carried by a snapshot or run input.
func checkMessageNulls(msgs []agui.Message) *violation {
	for _, m := range msgs {
		if m.SubagentRunID.State == agui.Null {
			return fail(RuleNullField, "Cannot send a message (id '%s') with 'subagentRunId: null'. The field is optional — omit it entirely.", m.ID)
		}
	}
	return nil
}

// seedOwners records who owns the messages and tool calls of a snapshot
// (authoritative) or of a run's input (only where unknown so far).
func (v *verifyState) seedOwners(msgs []agui.Message, authoritative bool) {
	for _, m := range msgs {
		if m.ID == "" {
			continue
		}
		bucket := &v.MessageOwners
		switch m.Role {
		case agui.RoleReasoning:
			bucket = &v.ReasoningOwners
		case agui.RoleActivity:
			bucket = &v.ActivityOwners
		}
		if _, ok := bucket.Get(m.ID); authoritative || !ok {
			bucket.Set(m.ID, tagFrom(m.SubagentRunID))
		}
		for _, tc := range m.ToolCalls {
			if tc.ID == "" {
				continue
			}
			if _, ok := v.ToolOwners.Get(tc.ID); authoritative || !ok {
				v.ToolOwners.Set(tc.ID, tagFrom(m.SubagentRunID))
			}
		}
	}
}

// subagentFieldChecks is the part of rule 13 that looks at optional fields sent as null.
func subagentFieldChecks(ev agui.Event) *violation {
	typ := ev.EventType()
	nullField := func(name string) *violation {
		return fail(RuleSubagent, "Cannot send '%s' with '%s: null'. The field is optional — omit it entirely.", typ, name)
	}
	switch e := ev.(type) {
	case *agui.SubagentStarted:
		for _, f := range []struct {
			name string
			v    agui.OptString
		}{{"description", e.Description}, {"parentSubagentRunId", e.ParentSubagentRunID}, {"parentToolCallId", e.ParentToolCallID}, {"parentMessageId", e.ParentMessageID}} {
			if f.v.State == agui.Null {
				return nullField(f.name)
			}
		}
	case *agui.SubagentError:
		if e.Code.State == agui.Null {
			return nullField("code")
		}
	case *agui.SubagentFinished:
		if len(e.Outcome) == 0 {
			return nil
		}
		if e.Outcome.Kind() == 'n' {
			return nullField("outcome")
		}
		var o struct {
			Type         any `json:"type"`
			InterruptIDs any `json:"interruptIds"`
		}
		if err := agui.UnmarshalValue(e.Outcome, &o); err != nil {
			return fail(RuleSubagent, "Cannot send '%s': outcome is not an object.", typ)
		}
		if o.Type != "success" && o.Type != "suspended" {
			return fail(RuleSubagent, "Cannot send '%s' with outcome type '%v'. The outcome is either { type: \"success\" } or { type: \"suspended\" }.", typ, o.Type)
		}
		if hasNullMember(e.Outcome, "interruptIds") {
			return fail(RuleSubagent, "Cannot send '%s' with 'outcome.interruptIds: null'. The field is optional — omit it entirely.", typ)
		}
		if ids, ok := o.InterruptIDs.([]any); ok {
			for _, id := range ids {
				if _, isStr := id.(string); !isStr {
					return fail(RuleSubagent, "Cannot send '%s' with a non-string entry in 'outcome.interruptIds'. Interrupt ids are strings.", typ)
				}
			}
		}
	}
	return nil
}

// hasNullMember reports whether object v has member name set to null.
func hasNullMember(v []byte, name string) bool {
	var m map[string]any
	if agui.UnmarshalValue(v, &m) != nil {
		return false
	}
	val, ok := m[name]
	return ok && val == nil
}
