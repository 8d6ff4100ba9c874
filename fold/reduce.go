package fold

import (
	"maps"
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/fold/statedoc"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// reduceState builds messages and state exactly as the reference
// defaultApplyEvents does, so that `agentwatch fold`
// can be compared with @ag-ui/client on the same log.
type reduceState struct {
	Messages []*agui.Message `json:"messages"`
	// State is changed in place by STATE_DELTA; a checkpoint shares it
	// copy-on-write (see stateDelta).
	State             statedoc.Doc        `json:"state"`
	RunToolCalls      []string            `json:"runToolCalls,omitempty"`
	Answered          persist.Set[string] `json:"answered,omitempty"`
	PendingInterrupts []agui.Interrupt    `json:"pendingInterrupts,omitempty"`
	// Gone are the messages Trim shed, by id; GoneCalls the tool calls
	// they held. The reference still has them: an event that names one
	// goes as it would have, as far as it can without the message
	// (shed.go).
	Gone      tombs[goneMessage] `json:"gone,omitempty"`
	GoneCalls tombs[goneCall]    `json:"goneCalls,omitempty"`
	// Tail and TailCalls are the tombstones whose message was last when
	// dropped: the next message added at the end becomes their Next.
	Tail      []string `json:"tail,omitempty"`
	TailCalls []string `json:"tailCalls,omitempty"`
	// Forgotten are the messages whose tombstones Trim forgot: a run
	// that resends one does not bring it back (forget.go).
	Forgotten idHashes `json:"forgotten,omitempty"`

	// Derived indexes, rebuilt after a restore and after any reordering.
	byID      index[string, *agui.Message]
	toolOwner index[string, *agui.Message]
	// text grows streamed message content by message id, args streamed
	// tool-call arguments by tool call id (stream.go).
	text textStreams[string]
	args textStreams[string]
	// last caches the latest lookup: deltas come in runs for one message.
	lastID  string
	lastMsg *agui.Message
	// callAt is where each tool call is in its message's ToolCalls (the
	// message toolOwner names), for the calls looked up since the last
	// reindex; see findToolCall.
	callAt map[string]int
	// runCalls is RunToolCalls as a set, built when first needed.
	runCalls map[string]struct{}
	// spot is where the last tool result went (see resultAt).
	spot resultSpot
	// searched counts the entries searches look at (messages, a message's
	// calls), so that tests can hold it to a constant per event as logs
	// grow (linear_internal_test.go): searches made the fold quadratic.
	searched int
	// twice is set when Messages may hold one message twice (a messages
	// snapshot can make two local messages with one id the same message);
	// index then searches from the start, as the reference does.
	twice bool
	// cow, when set, says which messages may be changed in place (checkpoint.go).
	cow *cow
	// stateShared is the cow at the last State.Share.
	stateShared *cow
}

func newReduceState() reduceState {
	return reduceState{} // the zero state document is {}
}

// reindex rebuilds the lookups "first message with this id" and "first
// message holding this tool call", the two searches the reference does with
// Array.find on every event.
func (r *reduceState) reindex() {
	r.lastID, r.lastMsg = "", nil
	r.spot = resultSpot{}
	r.callAt = nil
	r.byID.fresh(len(r.Messages))
	r.toolOwner.fresh(len(r.Messages) / 2)
	for _, m := range r.Messages {
		r.byID.setNew(m.ID, m)
		for _, tc := range m.ToolCalls {
			r.toolOwner.setNew(tc.ID, m)
		}
	}
}

func (r *reduceState) push(m *agui.Message) {
	r.createdMessage(m)
	r.Messages = append(r.Messages, m)
	if len(r.Tail)+len(r.TailCalls) > 0 {
		r.follow(m.ID)
	}
	if !r.byID.ready() {
		r.reindex()
		return
	}
	r.byID.setNew(m.ID, m)
	for _, tc := range m.ToolCalls {
		r.toolOwner.setNew(tc.ID, m)
	}
}

func (r *reduceState) find(id string) *agui.Message {
	if r.lastMsg != nil && id == r.lastID {
		return r.lastMsg
	}
	if !r.byID.ready() {
		r.reindex()
	}
	m := r.ownMessage(r.byID.get(id))
	if m != nil {
		r.lastID, r.lastMsg = id, m
	}
	return m
}

func (r *reduceState) findToolCall(id string) (*agui.Message, *agui.ToolCall) {
	if !r.byID.ready() {
		r.reindex()
	}
	m := r.ownMessage(r.toolOwner.get(id))
	if m == nil {
		return nil, nil
	}
	i, ok := r.callAt[id]
	if !ok || i >= len(m.ToolCalls) || m.ToolCalls[i].ID != id {
		r.indexCalls(m)
		if i, ok = r.callAt[id]; !ok {
			return m, nil
		}
	}
	return m, &m.ToolCalls[i]
}

// indexCalls notes where m's calls are, for those m is the first message
// to hold: a message may hold thousands of calls, and a search of them for
// each of their deltas and results would cost their number squared.
func (r *reduceState) indexCalls(m *agui.Message) {
	if r.callAt == nil {
		r.callAt = make(map[string]int, len(m.ToolCalls))
	}
	r.searched += len(m.ToolCalls)
	for i := len(m.ToolCalls) - 1; i >= 0; i-- { // the first of a repeated id wins
		if id := m.ToolCalls[i].ID; r.toolOwner.get(id) == m {
			r.callAt[id] = i
		}
	}
}

// index is the position of m in Messages (its first, like the
// reference's indexOf), or -1. The message looked for is nearly always a
// recent one, so the search starts from the end unless one message may be
// there twice.
func (r *reduceState) index(m *agui.Message) int {
	if r.twice {
		i := slices.Index(r.Messages, m)
		r.searched += i + 1
		return i
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		r.searched++
		if r.Messages[i] == m {
			return i
		}
	}
	return -1
}

// inRun reports whether a tool call started in the current run.
func (r *reduceState) inRun(id string) bool {
	if r.runCalls == nil {
		r.runCalls = make(map[string]struct{}, len(r.RunToolCalls))
		for _, c := range r.RunToolCalls {
			r.runCalls[c] = struct{}{}
		}
	}
	_, ok := r.runCalls[id]
	return ok
}

// warnf is how the reducer reports what the reference logs with console.warn.
type warnf func(format string, args ...any)

func mergeInto(target *agui.Metadata, b *agui.Base) bool {
	if b.Metadata == nil {
		return false
	}
	*target = agui.Merge(*target, maps.Clone(b.Metadata))
	return true
}

// apply applies one verified event. It returns the rule the event breaks
// when it cannot be applied at all (a state nested too deeply); the event
// has then changed nothing.
func (r *reduceState) apply(ev agui.Event, warn warnf) *violation {
	b := ev.Common()
	switch e := ev.(type) {
	case *agui.TextMessageStart:
		r.openMessage(e.MessageID, e.Role, e.Name, b, "TEXT_MESSAGE_START", "text", warn)
	case *agui.ReasoningMessageStart:
		r.openMessage(e.MessageID, agui.RoleReasoning, agui.OptString{}, b, "REASONING_MESSAGE_START", "reasoning", warn)
	case *agui.TextMessageContent:
		r.appendContent(e.MessageID, e.Delta, b, "TEXT_MESSAGE_CONTENT", "text", warn)
	case *agui.ReasoningMessageContent:
		r.appendContent(e.MessageID, e.Delta, b, "REASONING_MESSAGE_CONTENT", "reasoning", warn)
	case *agui.TextMessageEnd:
		r.closeMessage(e.MessageID, b, "TEXT_MESSAGE_END", "text", warn)
	case *agui.ReasoningMessageEnd:
		r.closeMessage(e.MessageID, b, "REASONING_MESSAGE_END", "reasoning", warn)
	case *agui.ToolCallStart:
		r.startToolCall(e, warn)
	case *agui.ToolCallArgs:
		m, tc := r.findToolCall(e.ToolCallID)
		switch {
		case m == nil:
			warn("TOOL_CALL_ARGS: No message found containing tool call with ID '%s'", e.ToolCallID)
		case tc == nil:
			warn("TOOL_CALL_ARGS: No tool call found with ID '%s'", e.ToolCallID)
		default:
			tc.Function.Arguments = r.args.append(e.ToolCallID, tc.Function.Arguments, e.Delta)
			mergeInto(&tc.Metadata, b)
		}
	case *agui.ToolCallEnd:
		m, tc := r.findToolCall(e.ToolCallID)
		switch {
		case m == nil:
			warn("TOOL_CALL_END: No message found containing tool call with ID '%s'", e.ToolCallID)
		case tc == nil:
			warn("TOOL_CALL_END: No tool call found with ID '%s'", e.ToolCallID)
		default:
			mergeInto(&tc.Metadata, b)
			tc.Function.Arguments = r.args.done(e.ToolCallID, tc.Function.Arguments)
		}
		r.args.end(e.ToolCallID)
	case *agui.ToolCallResult:
		r.toolResult(e)
	case *agui.StateSnapshot:
		r.State = statedoc.New(e.Snapshot.Clone())
	case *agui.StateDelta:
		return r.stateDelta(e, warn)
	case *agui.MessagesSnapshot:
		r.messagesSnapshot(e)
	case *agui.ActivitySnapshot:
		r.activitySnapshot(e)
	case *agui.ActivityDelta:
		r.activityDelta(e, warn)
	case *agui.RunStarted:
		r.RunToolCalls, r.runCalls = nil, nil
		r.Answered = persist.Set[string]{}
		if e.Input != nil {
			for i := range e.Input.Messages {
				m := &e.Input.Messages[i]
				if gone := r.Gone.Has(m.ID); r.find(m.ID) == nil && !gone && !r.Forgotten.has(m.ID) {
					r.push(cloneMessage(m))
				}
			}
		}
	case *agui.RunFinished:
		r.PendingInterrupts = nil
		if e.Outcome != nil && e.Outcome.Type == "interrupt" {
			for _, in := range e.Outcome.Interrupts {
				if in.SubagentRunID.State == agui.Null {
					in.SubagentRunID = agui.OptString{}
				}
				r.PendingInterrupts = append(r.PendingInterrupts, in)
			}
		}
	case *agui.ReasoningEncryptedValue:
		if e.Subtype == "tool-call" {
			if m := r.assistantWith(e.EntityID); m != nil {
				r.callOf(r.ownMessage(m), e.EntityID).SetEncryptedValue(e.EncryptedValue)
			}
		} else if m := r.find(e.EntityID); m != nil && m.Role != agui.RoleActivity {
			m.SetEncryptedValue(e.EncryptedValue)
		}
	}
	return nil
}

// callOf returns the first tool call id of m, which holds one.
func (r *reduceState) callOf(m *agui.Message, id string) *agui.ToolCall {
	if o, tc := r.findToolCall(id); o == m && tc != nil {
		return tc
	}
	r.searched += len(m.ToolCalls)
	return &m.ToolCalls[slices.IndexFunc(m.ToolCalls, func(tc agui.ToolCall) bool { return tc.ID == id })]
}

// PendingToolCalls returns the calls a RUN_FINISHED leaves for the client:
// the producer's list when it named one, else the run's unanswered calls.
func (r *reduceState) pendingToolCalls(e *agui.RunFinished) []string {
	if e.Outcome != nil && e.Outcome.Type == "success" && len(e.Outcome.PendingToolCallIDs) > 0 {
		return slices.Clone(e.Outcome.PendingToolCallIDs)
	}
	var out []string
	for _, id := range r.RunToolCalls {
		if !r.Answered.Has(id) {
			out = append(out, id)
		}
	}
	return out
}

func (r *reduceState) openMessage(id string, role agui.Role, name agui.OptString, b *agui.Base, typ, kind string, warn warnf) {
	existing := r.find(id)
	if existing != nil && existing.Role == agui.RoleActivity {
		warn("%s: Message '%s' is an activity message — message ids must be unique across activity and %s messages", typ, id, kind)
		return
	}
	target := existing
	if g, gone := r.Gone.Get(id); target == nil && gone {
		// The reference reopens the dropped message, with its role, where
		// it was.
		target = &agui.Message{ID: id, Role: g.Role, Content: agui.TextContent("")}
		r.insert(r.before(g.Next), target)
	}
	if target == nil {
		if role == "" {
			role = agui.RoleAssistant
		}
		target = &agui.Message{ID: id, Role: role, Content: agui.TextContent("")}
		if name.IsSet() {
			target.SetName(name.Value)
		}
		if b.SubagentRunID.IsSet() {
			target.SubagentRunID = b.SubagentRunID
		}
		r.push(target)
	}
	mergeInto(&target.Metadata, b)
}

func (r *reduceState) appendContent(id, delta string, b *agui.Base, typ, kind string, warn warnf) {
	m := r.find(id)
	if m == nil {
		warn("%s: No message found with ID '%s'", typ, id)
		return
	}
	if m.Role == agui.RoleActivity {
		warn("%s: Message '%s' is an activity message — message ids must be unique across activity and %s messages", typ, id, kind)
		return
	}
	cur := "" // content that is not text is replaced by the deltas
	if m.Content.Present && !m.Content.IsParts && m.Content.Object == nil {
		cur = m.Content.Text
	}
	m.Content = agui.TextContent(r.text.append(id, cur, delta))
	mergeInto(&m.Metadata, b)
}

func (r *reduceState) closeMessage(id string, b *agui.Base, typ, kind string, warn warnf) {
	m := r.find(id)
	if m == nil {
		warn("%s: No message found with ID '%s'", typ, id)
		return
	}
	if m.Role == agui.RoleActivity {
		warn("%s: Message '%s' is an activity message — message ids must be unique across activity and %s messages", typ, id, kind)
		return
	}
	if m.Content.Present && !m.Content.IsParts && m.Content.Object == nil {
		m.Content.Text = r.text.done(id, m.Content.Text)
	}
	r.text.end(id)
	mergeInto(&m.Metadata, b)
}

func (r *reduceState) startToolCall(e *agui.ToolCallStart, warn warnf) {
	if !r.inRun(e.ToolCallID) {
		r.RunToolCalls = append(r.RunToolCalls, e.ToolCallID)
		r.runCalls[e.ToolCallID] = struct{}{}
	}
	if _, tc := r.findToolCall(e.ToolCallID); tc != nil {
		if tc.Function.Name != e.ToolCallName {
			warn("TOOL_CALL_START: tool call '%s' already exists with name '%s' — updating it to '%s'", e.ToolCallID, tc.Function.Name, e.ToolCallName)
			tc.Function.Name = e.ToolCallName
		}
		mergeInto(&tc.Metadata, &e.Base)
		return
	}
	if g, gone := r.GoneCalls.Get(e.ToolCallID); gone {
		// The reference finds the call in the message Trim shed.
		if g.Name != e.ToolCallName {
			warn("TOOL_CALL_START: tool call '%s' already exists with name '%s' — updating it to '%s'", e.ToolCallID, g.Name, e.ToolCallName)
			g.Name = e.ToolCallName
			r.GoneCalls.Set(e.ToolCallID, g)
		}
		return
	}
	var target *agui.Message
	created, at := false, -1
	if e.ParentMessageID != "" {
		existing := r.find(e.ParentMessageID)
		g, gone := r.Gone.Get(e.ParentMessageID)
		role := g.Role
		if existing != nil {
			role, gone = existing.Role, false
		}
		if existing != nil && existing.Role == agui.RoleAssistant {
			target = existing
		} else {
			// A dropped assistant parent is stood for by a new message with
			// its id, where it was; a dropped parent of another role is
			// refused as the reference refuses it.
			id := e.ParentMessageID
			switch {
			case gone && role == agui.RoleAssistant:
				at = r.before(g.Next)
			case existing != nil || gone:
				warn("TOOL_CALL_START: parentMessageId '%s' matches a '%s' message, not assistant — falling back to toolCallId", e.ParentMessageID, role)
				id = e.ToolCallID
			}
			target, created = &agui.Message{ID: id, Role: agui.RoleAssistant, ToolCalls: []agui.ToolCall{}}, true
		}
	} else {
		target, created = &agui.Message{ID: e.ToolCallID, Role: agui.RoleAssistant, ToolCalls: []agui.ToolCall{}}, true
	}
	if created {
		// A message created here may reuse an id already present (the
		// reference does not check); it counts as new for the subagent tag.
		if gone := r.Gone.Has(target.ID); e.SubagentRunID.IsSet() && r.find(target.ID) == nil && !gone {
			target.SubagentRunID = e.SubagentRunID
		}
		if at >= 0 {
			r.insert(at, target)
		} else {
			r.push(target)
		}
	}
	tc := agui.ToolCall{ID: e.ToolCallID, Type: "function", Function: agui.FunctionCall{Name: e.ToolCallName}}
	mergeInto(&tc.Metadata, &e.Base)
	target.ToolCalls = append(target.ToolCalls, tc)
	r.toolOwner.setNew(tc.ID, target)
	if r.callAt != nil && r.toolOwner.get(tc.ID) == target {
		r.callAt[tc.ID] = len(target.ToolCalls) - 1
	}
}

func (r *reduceState) toolResult(e *agui.ToolCallResult) {
	r.Answered.Add(e.ToolCallID)
	role := e.Role
	if role == "" {
		role = agui.RoleTool
	}
	m := &agui.Message{ID: e.MessageID, Role: role, Content: cloneContent(e.Content)}
	m.SetToolCallID(e.ToolCallID)
	if e.SubagentRunID.IsSet() {
		m.SubagentRunID = e.SubagentRunID
	}
	mergeInto(&m.Metadata, &e.Base)
	owner := r.assistantWith(e.ToolCallID)
	at, ownerAt := r.resultAt(owner)
	if ownerAt < 0 {
		if g, gone := r.GoneCalls.Get(e.ToolCallID); gone && g.After {
			r.insert(r.before(g.Next), m) // after the dropped message's results
			return
		}
		r.push(m)
		return
	}
	r.createdMessage(m)
	r.Messages = slices.Insert(r.Messages, at, m)
	if x := r.byID.get(m.ID); x != nil && x != m {
		r.reindex() // the first message with this id may now be the new one
	} else {
		r.byID.set(m.ID, m)
	}
	r.spot = resultSpot{owner: owner, at: ownerAt, last: m, end: at + 1}
	if at == len(r.Messages)-1 && len(r.Tail)+len(r.TailCalls) > 0 {
		r.follow(m.ID)
	}
}

// assistantWith returns the first assistant message holding tool call id,
// as the reference finds a result's owner, through the index of calls.
func (r *reduceState) assistantWith(id string) *agui.Message {
	o, _ := r.findToolCall(id)
	if o == nil || o.Role == agui.RoleAssistant {
		return o
	}
	// The first message holding the call is not an assistant's: rare
	// enough to search.
	r.searched += len(r.Messages)
	i := slices.IndexFunc(r.Messages, func(x *agui.Message) bool {
		return x.Role == agui.RoleAssistant && slices.ContainsFunc(x.ToolCalls, func(tc agui.ToolCall) bool { return tc.ID == id })
	})
	if i < 0 {
		return nil
	}
	return r.Messages[i]
}

// resultSpot is where toolResult put the last result: after owner (at
// index at) and the results before it, at index end-1.
type resultSpot struct {
	owner, last *agui.Message
	at, end     int
}

// resultAt returns where a result for a call of owner goes, as the
// reference puts it: after owner and the tool messages that follow it;
// and owner's index (both -1 when owner is not there). When the last result went after the same owner and
// nothing has moved since, the search goes on from there: a message with
// many calls gets its many results without each one passing all the
// earlier ones.
func (r *reduceState) resultAt(owner *agui.Message) (at, ownerAt int) {
	if owner == nil {
		return -1, -1
	}
	s, n := r.spot, len(r.Messages)
	if s.owner == owner && !r.twice && s.at < n && r.Messages[s.at] == owner && s.end <= n && r.Messages[s.end-1] == s.last {
		at, ownerAt = s.end, s.at
	} else {
		if ownerAt = r.index(owner); ownerAt < 0 {
			return -1, -1
		}
		at = ownerAt + 1
	}
	for at < n && r.Messages[at].Role == agui.RoleTool {
		r.searched++
		at++
	}
	return at, ownerAt
}

func cloneContent(c agui.Content) agui.Content {
	c.Parts = slices.Clone(c.Parts)
	c.Object = c.Object.Clone()
	return c
}

// cloneMessage copies a message out of an event, so that applying a record
// never changes the record (the same records may be folded again).
func cloneMessage(m *agui.Message) *agui.Message {
	c := *m
	c.Content = cloneContent(m.Content)
	if m.ToolCalls != nil {
		c.ToolCalls = make([]agui.ToolCall, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			tc.Metadata = maps.Clone(tc.Metadata)
			c.ToolCalls[i] = tc
		}
	}
	c.Metadata = maps.Clone(m.Metadata)
	if c.SubagentRunID.State == agui.Null {
		c.SubagentRunID = agui.OptString{}
	}
	return &c
}
