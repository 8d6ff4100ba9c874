package fold

import (
	"fmt"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// AG-UI's *_CHUNK events (TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK,
// REASONING_MESSAGE_CHUNK), expanded into the start, content and end
// events the rest of the fold reads, as the reference's transformChunks
// does. (The blocks a persistent list is kept in are persist's.)

// laneKind is what a lane's open chunk stream builds.
type laneKind string

const (
	laneText      laneKind = "text"
	laneTool      laneKind = "tool"
	laneReasoning laneKind = "reasoning"
)

// lane is one open chunk stream. A lane per owner (subagent run, or the
// parent agent when Owner is empty) as in the reference transformChunks.
type lane struct {
	Owner           string   `json:"owner,omitempty"`
	Kind            laneKind `json:"kind"`
	ID              string   `json:"id"`
	Role            string   `json:"role,omitempty"`
	Name            string   `json:"name,omitempty"`
	HasName         bool     `json:"hasName,omitempty"`
	ToolName        string   `json:"toolName,omitempty"`
	ParentMessageID string   `json:"parentMessageId,omitempty"`
	HasParent       bool     `json:"hasParent,omitempty"`
	SubagentRunID   string   `json:"subagentRunId,omitempty"`
	HasSubagent     bool     `json:"hasSubagent,omitempty"`
}

// chunkState expands TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK and
// REASONING_MESSAGE_CHUNK into start/content/end events exactly as the
// reference transformChunks does. Lanes keep insertion order, which decides
// the order of synthesized ENDs.
type chunkState struct {
	Lanes []lane `json:"lanes,omitempty"`
}

func ownerOf(b *agui.Base) string {
	if b.SubagentRunID.IsSet() {
		return b.SubagentRunID.Value
	}
	return ""
}

func (c *chunkState) find(owner string) int {
	for i := range c.Lanes {
		if c.Lanes[i].Owner == owner {
			return i
		}
	}
	return -1
}

func (c *chunkState) closeLane(owner string, out []agui.Event) []agui.Event {
	i := c.find(owner)
	if i < 0 {
		return out
	}
	l := c.Lanes[i]
	c.Lanes = append(c.Lanes[:i:i], c.Lanes[i+1:]...)
	b := agui.Base{}
	if l.HasSubagent {
		b.SubagentRunID = agui.Some(l.SubagentRunID)
	}
	switch l.Kind {
	case laneText:
		b.Type = agui.TypeTextMessageEnd
		return append(out, &agui.TextMessageEnd{Base: b, MessageID: l.ID})
	case laneTool:
		b.Type = agui.TypeToolCallEnd
		return append(out, &agui.ToolCallEnd{Base: b, ToolCallID: l.ID})
	default:
		b.Type = agui.TypeReasoningMessageEnd
		return append(out, &agui.ReasoningMessageEnd{Base: b, MessageID: l.ID})
	}
}

func (c *chunkState) closeAll(out []agui.Event) []agui.Event {
	for len(c.Lanes) > 0 {
		out = c.closeLane(c.Lanes[0].Owner, out)
	}
	return out
}

// resolveLane picks the lane a chunk continues or opens, as the reference does.
func (c *chunkState) resolveLane(kind laneKind, id agui.OptString, tag agui.OptString, chunkType, entity string) (string, error) {
	if id.IsSet() {
		for _, l := range c.Lanes {
			if l.Kind == kind && l.ID == id.Value {
				if tag.IsSet() && tag.Value != l.Owner {
					return "", sayErr("cannot continue %s '%s': chunk subagentRunId '%s' does not match the open stream's subagent '%s'", entity, id.Value, tag.Value, ownerName(l.Owner))
				}
				return l.Owner, nil
			}
		}
		return tag.Value, nil
	}
	if tag.IsSet() {
		return tag.Value, nil
	}
	if i := c.find(""); i >= 0 && c.Lanes[i].Kind == kind {
		return "", nil
	}
	var candidates []string
	for _, l := range c.Lanes {
		if l.Kind == kind {
			candidates = append(candidates, l.Owner)
		}
	}
	switch len(candidates) {
	case 0:
		return "", nil
	case 1:
		return candidates[0], nil
	}
	idField := "messageId"
	if kind == laneTool {
		idField = "toolCallId"
	}
	return "", fmt.Errorf("ambiguous %s: it carries neither a %s nor a subagentRunId, but %d lanes have an open %s", chunkType, idField, len(candidates), entity)
}

func ownerName(o string) string {
	if o == "" {
		return "(the parent agent)"
	}
	return o
}

// expand turns one event into the events the reference pipeline passes on
// after transformChunks. Non-chunk events may be preceded by synthesized ENDs.
func (c *chunkState) expand(ev agui.Event, out []agui.Event) ([]agui.Event, error) {
	b := ev.Common()
	switch ev.EventType() {
	case agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd,
		agui.TypeToolCallStart, agui.TypeToolCallArgs, agui.TypeToolCallEnd, agui.TypeToolCallResult,
		agui.TypeStateSnapshot, agui.TypeStateDelta, agui.TypeCustom, agui.TypeStepStarted, agui.TypeStepFinished,
		agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeReasoningMessageContent,
		agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd:
		if len(c.Lanes) == 0 {
			return append(out, ev), nil
		}
		return append(c.closeLane(ownerOf(b), out), ev), nil
	case agui.TypeRunStarted, agui.TypeRunFinished, agui.TypeRunError, agui.TypeMessagesSnapshot:
		if len(c.Lanes) == 0 {
			return append(out, ev), nil
		}
		return append(c.closeAll(out), ev), nil
	case agui.TypeSubagentFinished, agui.TypeSubagentError:
		if !b.SubagentRunID.IsSet() {
			return append(out, ev), nil
		}
		return append(c.closeLane(b.SubagentRunID.Value, out), ev), nil
	}
	switch e := ev.(type) {
	case *agui.TextMessageChunk:
		return c.textChunk(e)
	case *agui.ToolCallChunk:
		return c.toolChunk(e)
	case *agui.ReasoningMessageChunk:
		return c.reasoningChunk(e)
	}
	return append(out, ev), nil
}

// chunkBase is the base of a synthesized event: the chunk's subagent tag and,
// when asked, its metadata and rawEvent (never its timestamp).
func chunkBase(typ string, chunk *agui.Base, owner agui.OptString, withOrigin bool) agui.Base {
	b := agui.Base{Type: typ, Metadata: chunk.Metadata, SubagentRunID: owner}
	if withOrigin {
		b.RawEvent = chunk.RawEvent
		b.Unknown = chunk.Unknown
	}
	return b
}

func tagOf(l *lane) agui.OptString {
	if l.HasSubagent {
		return agui.Some(l.SubagentRunID)
	}
	return agui.OptString{}
}

// contentOwner is the chunk's own tag when it has one, else the stream's.
func contentOwner(chunk *agui.Base, l *lane) agui.OptString {
	if chunk.SubagentRunID.State != agui.Absent {
		return chunk.SubagentRunID
	}
	return tagOf(l)
}

func agree(entity, id, field string, incoming agui.OptString, established string, has bool) error {
	if !incoming.IsSet() {
		return nil
	}
	if has && incoming.Value == established {
		return nil
	}
	est := "(absent)"
	if has {
		est = "'" + established + "'"
	}
	return sayErr("cannot continue %s '%s': chunk %s '%s' does not match the open stream's %s %s", entity, id, field, incoming.Value, field, est)
}

func (c *chunkState) textChunk(e *agui.TextMessageChunk) ([]agui.Event, error) {
	owner, err := c.resolveLane(laneText, e.MessageID, e.SubagentRunID, agui.TypeTextMessageChunk, "text message")
	if err != nil {
		return nil, err
	}
	var out []agui.Event
	var l *lane
	if i := c.find(owner); i >= 0 && c.Lanes[i].Kind == laneText && (!e.MessageID.IsSet() || e.MessageID.Value == c.Lanes[i].ID) {
		l = &c.Lanes[i]
		if err := agree("text message", l.ID, "role", e.Role, l.Role, true); err != nil {
			return nil, err
		}
		if err := agree("text message", l.ID, "name", e.Name, l.Name, l.HasName); err != nil {
			return nil, err
		}
	} else {
		if !e.MessageID.IsSet() {
			return nil, fmt.Errorf("first TEXT_MESSAGE_CHUNK must have a messageId")
		}
		out = c.closeLane(owner, out)
		role := "assistant"
		if e.Role.IsSet() {
			role = e.Role.Value
		}
		c.Lanes = append(c.Lanes, lane{Owner: owner, Kind: laneText, ID: e.MessageID.Value, Role: role,
			Name: e.Name.Value, HasName: e.Name.IsSet(),
			SubagentRunID: e.SubagentRunID.Value, HasSubagent: e.SubagentRunID.IsSet()})
		l = &c.Lanes[len(c.Lanes)-1]
		start := &agui.TextMessageStart{Base: chunkBase(agui.TypeTextMessageStart, &e.Base, tagOf(l), false),
			MessageID: l.ID, Role: agui.Role(role)}
		if e.Name.IsSet() {
			start.Name = e.Name
		}
		out = append(out, start)
	}
	if e.Delta.IsSet() || e.RawEvent != nil || len(out) == 0 && (e.Metadata != nil || e.SubagentRunID.State == agui.Null || e.Unknown != nil) {
		out = append(out, &agui.TextMessageContent{Base: chunkBase(agui.TypeTextMessageContent, &e.Base, contentOwner(&e.Base, l), true),
			MessageID: l.ID, Delta: e.Delta.Value})
	}
	return out, nil
}

func (c *chunkState) toolChunk(e *agui.ToolCallChunk) ([]agui.Event, error) {
	owner, err := c.resolveLane(laneTool, e.ToolCallID, e.SubagentRunID, agui.TypeToolCallChunk, "tool call")
	if err != nil {
		return nil, err
	}
	var out []agui.Event
	var l *lane
	if i := c.find(owner); i >= 0 && c.Lanes[i].Kind == laneTool && (!e.ToolCallID.IsSet() || e.ToolCallID.Value == c.Lanes[i].ID) {
		l = &c.Lanes[i]
		if err := agree("tool call", l.ID, "toolCallName", e.ToolCallName, l.ToolName, true); err != nil {
			return nil, err
		}
		if err := agree("tool call", l.ID, "parentMessageId", e.ParentMessageID, l.ParentMessageID, l.HasParent); err != nil {
			return nil, err
		}
	} else {
		if !e.ToolCallID.IsSet() {
			return nil, fmt.Errorf("first TOOL_CALL_CHUNK must have a toolCallId")
		}
		if !e.ToolCallName.IsSet() {
			return nil, fmt.Errorf("first TOOL_CALL_CHUNK must have a toolCallName")
		}
		out = c.closeLane(owner, out)
		c.Lanes = append(c.Lanes, lane{Owner: owner, Kind: laneTool, ID: e.ToolCallID.Value, ToolName: e.ToolCallName.Value,
			ParentMessageID: e.ParentMessageID.Value, HasParent: e.ParentMessageID.IsSet(),
			SubagentRunID: e.SubagentRunID.Value, HasSubagent: e.SubagentRunID.IsSet()})
		l = &c.Lanes[len(c.Lanes)-1]
		out = append(out, &agui.ToolCallStart{Base: chunkBase(agui.TypeToolCallStart, &e.Base, tagOf(l), false),
			ToolCallID: l.ID, ToolCallName: l.ToolName, ParentMessageID: l.ParentMessageID})
	}
	if e.Delta.IsSet() || e.RawEvent != nil || len(out) == 0 && (e.Metadata != nil || e.SubagentRunID.State == agui.Null || e.Unknown != nil) {
		out = append(out, &agui.ToolCallArgs{Base: chunkBase(agui.TypeToolCallArgs, &e.Base, contentOwner(&e.Base, l), true),
			ToolCallID: l.ID, Delta: e.Delta.Value})
	}
	return out, nil
}

func (c *chunkState) reasoningChunk(e *agui.ReasoningMessageChunk) ([]agui.Event, error) {
	owner, err := c.resolveLane(laneReasoning, e.MessageID, e.SubagentRunID, agui.TypeReasoningMessageChunk, "reasoning message")
	if err != nil {
		return nil, err
	}
	var out []agui.Event
	var l *lane
	if i := c.find(owner); i >= 0 && c.Lanes[i].Kind == laneReasoning && (!e.MessageID.IsSet() || e.MessageID.Value == c.Lanes[i].ID) {
		l = &c.Lanes[i]
	} else {
		if !e.MessageID.IsSet() {
			return nil, fmt.Errorf("first REASONING_MESSAGE_CHUNK must have a messageId")
		}
		out = c.closeLane(owner, out)
		c.Lanes = append(c.Lanes, lane{Owner: owner, Kind: laneReasoning, ID: e.MessageID.Value,
			SubagentRunID: e.SubagentRunID.Value, HasSubagent: e.SubagentRunID.IsSet()})
		l = &c.Lanes[len(c.Lanes)-1]
		out = append(out, &agui.ReasoningMessageStart{Base: chunkBase(agui.TypeReasoningMessageStart, &e.Base, tagOf(l), false),
			MessageID: l.ID, Role: agui.RoleReasoning})
	}
	if e.Delta.IsSet() || e.RawEvent != nil || len(out) == 0 && (e.Metadata != nil || e.SubagentRunID.State == agui.Null || e.Unknown != nil) {
		out = append(out, &agui.ReasoningMessageContent{Base: chunkBase(agui.TypeReasoningMessageContent, &e.Base, contentOwner(&e.Base, l), true),
			MessageID: l.ID, Delta: e.Delta.Value})
	}
	return out, nil
}
