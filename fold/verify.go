package fold

import (
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// tag is the subagent an entity or event belongs to; Has false means the
// parent agent.
type tag struct {
	ID  string `json:"id,omitempty"`
	Has bool   `json:"has,omitempty"`
}

func tagFrom(o agui.OptString) tag { return tag{ID: o.Value, Has: o.IsSet()} }

func (t tag) name() string {
	if !t.Has {
		return "(the parent agent)"
	}
	return t.ID
}

type stepOwner struct {
	Owner tag      `json:"owner"`
	Names []string `json:"names,omitempty"`
}

// owners record who opened each stream of one kind (messages, tool calls,
// activities, reasoning): the owner's tag by stream id. Entries are only
// added or overwritten, or dropped once nothing names them (forget.go),
// so checkpoints share them (persist.Map) rather than copy every id the
// log ever opened.
type owners = persist.Map[string, tag]

// verifyState checks each event against the reference verifier's rules
// (verifyEvents in @ag-ui/client 1.0). Unlike the reference it does not
// stop at the first error: a failing event is reported and skipped, and the
// state only changes for events that pass.
type verifyState struct {
	FirstSeen   bool `json:"firstSeen,omitempty"`
	RunStarted  bool `json:"runStarted,omitempty"`
	RunFinished bool `json:"runFinished,omitempty"`
	RunErrored  bool `json:"runErrored,omitempty"`

	Messages  []string `json:"messages,omitempty"`
	Tools     []string `json:"tools,omitempty"`
	Spans     []string `json:"spans,omitempty"`
	Reasoning []string `json:"reasoning,omitempty"`

	MessageOwners   owners `json:"messageOwners,omitempty"`
	ToolOwners      owners `json:"toolOwners,omitempty"`
	ActivityOwners  owners `json:"activityOwners,omitempty"`
	ReasoningOwners owners `json:"reasoningOwners,omitempty"`

	Steps     []stepOwner     `json:"steps,omitempty"`
	Subagents []string        `json:"subagents,omitempty"`
	Closed    map[string]bool `json:"closed,omitempty"`

	// open answers which ids the lists above hold (verify_open.go);
	// searched counts the entries closing one looked at, as
	// reduceState.searched does.
	open     *openSets
	searched int
}

func (v *verifyState) resetRun() {
	*v = verifyState{FirstSeen: true, RunStarted: true, searched: v.searched}
}

type violation struct {
	rule Rule
	msg  string
}

func fail(rule Rule, format string, args ...any) *violation {
	return &violation{rule: rule, msg: say(format, args...)}
}

// ownerMismatch is rule 14: a continuation tagged with a subagent other than its opener's.
func ownerMismatch(typ string, ev agui.OptString, owner tag, known bool, kind, id string) *violation {
	if !ev.IsSet() || !known {
		return nil
	}
	if owner.Has && owner.ID == ev.Value {
		return nil
	}
	return fail(RuleOwnership, "Cannot send '%s': subagentRunId '%s' does not match the %s '%s' opener's subagent '%s'.", typ, ev.Value, kind, id, owner.name())
}

// firstEvent is rule 1. Unlike the other rules it does not stop the event:
// a log that starts mid-run (a tail, a messages-only export) keeps its
// first event, and the user is told the run's start is missing.
func (v *verifyState) firstEvent(ev agui.Event) *violation {
	if v.FirstSeen {
		return nil
	}
	v.FirstSeen = true
	if typ := ev.EventType(); typ != agui.TypeRunStarted && typ != agui.TypeRunError {
		return fail(RuleFirstEvent, "First event must be 'RUN_STARTED'")
	}
	return nil
}

// check validates ev and, when it passes, records its effect. A nil result means it passed.
func (v *verifyState) check(ev agui.Event) *violation {
	typ := ev.EventType()
	b := ev.Common()
	if v.RunErrored && typ != agui.TypeRunStarted {
		return fail(RuleAfterError, "Cannot send event type '%s': The run has already errored with 'RUN_ERROR'. No further events can be sent.", typ)
	}
	if v.RunFinished && typ != agui.TypeRunError && typ != agui.TypeRunStarted {
		return fail(RuleAfterFinish, "Cannot send event type '%s': The run has already finished with 'RUN_FINISHED'. Start a new run with 'RUN_STARTED'.", typ)
	}
	resetRun := false
	if !v.FirstSeen {
		v.FirstSeen = true
	} else if typ == agui.TypeRunStarted {
		if v.RunStarted && !v.RunFinished && !v.RunErrored {
			return fail(RuleRunActive, "Cannot send 'RUN_STARTED' while a run is still active. The previous run must be finished with 'RUN_FINISHED' before starting a new run.")
		}
		resetRun = v.RunFinished || v.RunErrored
	}
	if b.SubagentRunID.State == agui.Null {
		return fail(RuleNullField, "Cannot send '%s' with 'subagentRunId: null'. The field is optional — omit it entirely.", typ)
	}
	if bad := subagentFieldChecks(ev); bad != nil {
		return bad
	}
	if rf, ok := ev.(*agui.RunFinished); ok && rf.Outcome != nil && rf.Outcome.Type == "interrupt" {
		for _, in := range rf.Outcome.Interrupts {
			if in.SubagentRunID.State == agui.Null {
				return fail(RuleNullField, "Cannot send 'RUN_FINISHED' with an interrupt (id '%s') carrying 'subagentRunId: null'. The field is optional — omit it entirely.", in.ID)
			}
		}
	}
	evTag := b.SubagentRunID
	switch e := ev.(type) {
	case *agui.TextMessageStart:
		id := e.MessageID
		if v.isOpen(&v.Messages, id) {
			return fail(RuleTextOpen, "Cannot send 'TEXT_MESSAGE_START' event: A text message with ID '%s' is already in progress. Complete it with 'TEXT_MESSAGE_END' first.", id)
		}
		owner, known := v.MessageOwners.Get(id)
		if bad := ownerMismatch(typ, evTag, owner, known, "message", id); bad != nil {
			return bad
		}
		v.opened(&v.Messages, id)
		if !known {
			v.MessageOwners.Set(id, tagFrom(evTag))
		}
	case *agui.TextMessageContent:
		return v.continueText(typ, e.MessageID, evTag, false)
	case *agui.TextMessageEnd:
		return v.continueText(typ, e.MessageID, evTag, true)
	case *agui.ToolCallStart:
		id := e.ToolCallID
		if v.isOpen(&v.Tools, id) {
			return fail(RuleToolCall, "Cannot send 'TOOL_CALL_START' event: A tool call with ID '%s' is already in progress. Complete it with 'TOOL_CALL_END' first.", id)
		}
		var inherited tag
		hasInherited := false
		if e.ParentMessageID != "" {
			if po, ok := v.MessageOwners.Get(e.ParentMessageID); ok {
				if evTag.IsSet() && !(po.Has && po.ID == evTag.Value) {
					return fail(RuleOwnership, "Cannot send 'TOOL_CALL_START': subagentRunId '%s' does not match its parent message '%s' owner '%s'. A tool call belongs to the message that carries it.", evTag.Value, e.ParentMessageID, po.name())
				}
				inherited, hasInherited = po, true
			}
		}
		existing, known := v.ToolOwners.Get(id)
		if known {
			if bad := ownerMismatch(typ, evTag, existing, true, "tool call", id); bad != nil {
				return bad
			}
			if !evTag.IsSet() && hasInherited && inherited != existing {
				return fail(RuleOwnership, "Cannot send 'TOOL_CALL_START': tool call '%s' is owned by '%s' but its parent message '%s' is owned by '%s'. A tool call belongs to the message that carries it.", id, existing.name(), e.ParentMessageID, inherited.name())
			}
		}
		v.opened(&v.Tools, id)
		if !known {
			t := inherited
			if evTag.IsSet() {
				t = tagFrom(evTag)
			}
			v.ToolOwners.Set(id, t)
		}
	case *agui.ToolCallArgs:
		return v.continueTool(typ, e.ToolCallID, evTag, false)
	case *agui.ToolCallEnd:
		return v.continueTool(typ, e.ToolCallID, evTag, true)
	case *agui.StepStarted:
		so := v.stepsFor(tagFrom(evTag))
		if slices.Contains(so.Names, e.StepName) {
			in := ""
			if evTag.IsSet() {
				in = say(" in subagent '%s'", evTag.Value)
			}
			return fail(RuleStepActive, "Step \"%s\" is already active for 'STEP_STARTED'%s", e.StepName, in)
		}
		so.Names = append(so.Names, e.StepName)
	case *agui.StepFinished:
		me := tagFrom(evTag)
		so := v.stepsFor(me)
		if !slices.Contains(so.Names, e.StepName) {
			for _, other := range v.Steps {
				if other.Owner != me && slices.Contains(other.Names, e.StepName) {
					who := "the parent agent"
					if me.Has {
						who = say("subagent '%s'", me.ID)
					}
					where := "the parent agent"
					if other.Owner.Has {
						where = say("subagent '%s'", other.Owner.ID)
					}
					return fail(RuleStepNotStarted, "Cannot send 'STEP_FINISHED' for step \"%s\" attributed to %s: that step is open under %s. A step must be finished by whoever started it.", e.StepName, who, where)
				}
			}
			return fail(RuleStepNotStarted, "Cannot send 'STEP_FINISHED' for step \"%s\" that was not started", e.StepName)
		}
		so.Names, _ = remove(so.Names, e.StepName)
	case *agui.ActivitySnapshot:
		_, known := v.ActivityOwners.Get(e.MessageID)
		if !known || e.Replace == nil || *e.Replace {
			v.ActivityOwners.Set(e.MessageID, tagFrom(evTag))
		}
	case *agui.ToolCallResult:
		v.MessageOwners.Set(e.MessageID, tagFrom(evTag))
	case *agui.ReasoningStart:
		return v.openReasoning(typ, e.MessageID, evTag, true)
	case *agui.ReasoningMessageStart:
		return v.openReasoning(typ, e.MessageID, evTag, false)
	case *agui.ReasoningMessageContent:
		return v.continueReasoning(typ, e.MessageID, evTag, false, false)
	case *agui.ReasoningMessageEnd:
		return v.continueReasoning(typ, e.MessageID, evTag, false, true)
	case *agui.ReasoningEnd:
		return v.continueReasoning(typ, e.MessageID, evTag, true, true)
	case *agui.ReasoningEncryptedValue:
		var owner tag
		var known bool
		kind := "reasoning message"
		switch e.Subtype {
		case "tool-call":
			owner, known = v.ToolOwners.Get(e.EntityID)
			kind = "tool call"
		case "message":
			owner, known = v.MessageOwners.Get(e.EntityID)
			if !known {
				owner, known = v.ReasoningOwners.Get(e.EntityID)
			}
			kind = "message"
		default:
			owner, known = v.ReasoningOwners.Get(e.EntityID)
		}
		return ownerMismatch(typ, evTag, owner, known, kind, e.EntityID)
	case *agui.ActivityDelta:
		owner, known := v.ActivityOwners.Get(e.MessageID)
		return ownerMismatch(typ, evTag, owner, known, "activity", e.MessageID)
	case *agui.SubagentStarted:
		if !evTag.IsSet() {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_STARTED' without a 'subagentRunId'.")
		}
		if !e.Name.IsSet() {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_STARTED' without a 'name'.")
		}
		id := evTag.Value
		if v.isOpen(&v.Subagents, id) {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_STARTED': subagent '%s' is already active. Finish it with 'SUBAGENT_FINISHED' first.", id)
		}
		if v.Closed[id] {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_STARTED': subagent '%s' has already finished in this run. Subagent IDs are per-invocation and cannot be reused.", id)
		}
		if p := e.ParentSubagentRunID; p.IsSet() && !v.isOpen(&v.Subagents, p.Value) && !v.Closed[p.Value] {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_STARTED': parentSubagentRunId '%s' has not been started in this run.", p.Value)
		}
		v.opened(&v.Subagents, id)
	case *agui.SubagentFinished, *agui.SubagentError:
		if !evTag.IsSet() {
			return fail(RuleSubagent, "Cannot send '%s' without a 'subagentRunId'.", typ)
		}
		if se, ok := e.(*agui.SubagentError); ok && !se.Message.IsSet() {
			return fail(RuleSubagent, "Cannot send 'SUBAGENT_ERROR' without a 'message'.")
		}
		id := evTag.Value
		if !v.isOpen(&v.Subagents, id) {
			return fail(RuleSubagent, "Cannot send '%s': no active subagent found with ID '%s'. A 'SUBAGENT_STARTED' event must be sent first.", typ, id)
		}
		v.closed(&v.Subagents, id)
		if v.Closed == nil {
			v.Closed = map[string]bool{}
		}
		v.Closed[id] = true
	case *agui.MessagesSnapshot:
		if bad := checkMessageNulls(e.Messages); bad != nil {
			return bad
		}
		v.seedOwners(e.Messages, true)
	case *agui.RunStarted:
		var msgs []agui.Message
		if e.Input != nil {
			msgs = e.Input.Messages
		}
		if bad := checkMessageNulls(msgs); bad != nil {
			return bad
		}
		if resetRun {
			v.resetRun()
		}
		v.RunStarted = true
		v.seedOwners(msgs, false)
	case *agui.RunFinished:
		if bad := v.openAtFinish(); bad != nil {
			return bad
		}
		v.RunFinished = true
	case *agui.RunError:
		v.RunErrored = true
	}
	return nil
}

func (v *verifyState) stepsFor(owner tag) *stepOwner {
	for i := range v.Steps {
		if v.Steps[i].Owner == owner {
			return &v.Steps[i]
		}
	}
	v.Steps = append(v.Steps, stepOwner{Owner: owner})
	return &v.Steps[len(v.Steps)-1]
}

func (v *verifyState) continueText(typ, id string, evTag agui.OptString, end bool) *violation {
	if !v.isOpen(&v.Messages, id) {
		if end {
			return fail(RuleTextNotOpen, "Cannot send 'TEXT_MESSAGE_END' event: No active text message found with ID '%s'. A 'TEXT_MESSAGE_START' event must be sent first.", id)
		}
		return fail(RuleTextNotOpen, "Cannot send 'TEXT_MESSAGE_CONTENT' event: No active text message found with ID '%s'. Start a text message with 'TEXT_MESSAGE_START' first.", id)
	}
	owner, known := v.MessageOwners.Get(id)
	if bad := ownerMismatch(typ, evTag, owner, known, "message", id); bad != nil {
		return bad
	}
	if end {
		v.closed(&v.Messages, id)
	}
	return nil
}

func (v *verifyState) continueTool(typ, id string, evTag agui.OptString, end bool) *violation {
	if !v.isOpen(&v.Tools, id) {
		if end {
			return fail(RuleToolCall, "Cannot send 'TOOL_CALL_END' event: No active tool call found with ID '%s'. A 'TOOL_CALL_START' event must be sent first.", id)
		}
		return fail(RuleToolCall, "Cannot send 'TOOL_CALL_ARGS' event: No active tool call found with ID '%s'. Start a tool call with 'TOOL_CALL_START' first.", id)
	}
	owner, known := v.ToolOwners.Get(id)
	if bad := ownerMismatch(typ, evTag, owner, known, "tool call", id); bad != nil {
		return bad
	}
	if end {
		v.closed(&v.Tools, id)
	}
	return nil
}

func (v *verifyState) openReasoning(typ, id string, evTag agui.OptString, span bool) *violation {
	open := &v.Reasoning
	if span {
		open = &v.Spans
	}
	if v.isOpen(open, id) {
		if span {
			return fail(RuleReasoning, "Cannot send 'REASONING_START' event: A reasoning span with ID '%s' is already in progress. Complete it with 'REASONING_END' first.", id)
		}
		return fail(RuleReasoning, "Cannot send 'REASONING_MESSAGE_START' event: A reasoning message with ID '%s' is already in progress. Complete it with 'REASONING_MESSAGE_END' first.", id)
	}
	owner, known := v.ReasoningOwners.Get(id)
	if bad := ownerMismatch(typ, evTag, owner, known, "reasoning message", id); bad != nil {
		return bad
	}
	v.opened(open, id)
	if !known {
		v.ReasoningOwners.Set(id, tagFrom(evTag))
	}
	return nil
}

func (v *verifyState) continueReasoning(typ, id string, evTag agui.OptString, span, end bool) *violation {
	open := &v.Reasoning
	if span {
		open = &v.Spans
	}
	if !v.isOpen(open, id) {
		if span {
			return fail(RuleReasoning, "Cannot send 'REASONING_END' event: No active reasoning span found with ID '%s'. A 'REASONING_START' event must be sent first.", id)
		}
		return fail(RuleReasoning, "Cannot send '%s' event: No active reasoning message found with ID '%s'. Start a reasoning message with 'REASONING_MESSAGE_START' first.", typ, id)
	}
	owner, known := v.ReasoningOwners.Get(id)
	if bad := ownerMismatch(typ, evTag, owner, known, "reasoning message", id); bad != nil {
		return bad
	}
	if end {
		v.closed(open, id)
	}
	return nil
}
