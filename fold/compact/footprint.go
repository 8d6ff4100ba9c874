package compact

import (
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// access is one thing an event reads or writes when it is folded: a piece
// of the verifier's state (which streams are open, who owns an id), of the
// reducer's (a message, a tool call, the order of the message list), or of
// the chunk expander's (the open chunk streams, "lanes").
type access struct {
	key   string
	write bool
}

// footprint is everything an event touches. Two events whose footprints do
// not clash (same key, at least one write) fold alike in either order, so
// compaction may swap them; otherwise it must not.
type footprint []access

// Keys that are not about messages; every other key is.
const (
	keyState     = "state"     // the agent state
	keyLane      = "lane"      // chunk lanes: chunks write, events that close a lane read
	keySteps     = "steps"     // the verifier's open steps
	keySubagents = "subagents" // the verifier's active subagents
	// keyAllMessages clashes with every message key: an event that may
	// change any message, owner or open stream (MESSAGES_SNAPSHOT, chunks,
	// legacy THINKING_* events, whose ids depend on their position).
	keyAllMessages = "*"
)

func aboutMessages(key string) bool {
	switch key {
	case keyState, keyLane, keySteps, keySubagents:
		return false
	}
	return true
}

func r(key string) access { return access{key: key} }
func w(key string) access { return access{key: key, write: true} }

// footprintOf says what folding rec touches. It errs on the side of too
// much: a clash that is not real only costs a little compaction.
func footprintOf(rec *model.Record) footprint {
	ev, ok := rec.Event.(agui.Event)
	if !ok {
		return nil // unreadable: folds to a diagnostic only
	}
	closer := r(keyLane) // explicit stream events close their lane's chunk stream
	switch e := ev.(type) {
	case *agui.TextMessageStart:
		return footprint{w("open-text:" + e.MessageID), w("owner:" + e.MessageID), w("msg:" + e.MessageID), w("list"), closer}
	case *agui.TextMessageContent:
		return footprint{r("open-text:" + e.MessageID), r("owner:" + e.MessageID), w("msg:" + e.MessageID), closer}
	case *agui.TextMessageEnd:
		return footprint{w("open-text:" + e.MessageID), r("owner:" + e.MessageID), w("msg:" + e.MessageID), closer}
	case *agui.ToolCallStart:
		fp := footprint{w("open-tool:" + e.ToolCallID), w("tool-owner:" + e.ToolCallID), w("call:" + e.ToolCallID),
			w("msg:" + e.ToolCallID), w("list"), closer}
		if e.ParentMessageID != "" {
			fp = append(fp, r("owner:"+e.ParentMessageID), w("msg:"+e.ParentMessageID))
		}
		return fp
	case *agui.ToolCallArgs:
		return footprint{r("open-tool:" + e.ToolCallID), r("tool-owner:" + e.ToolCallID), w("call:" + e.ToolCallID), closer}
	case *agui.ToolCallEnd:
		return footprint{w("open-tool:" + e.ToolCallID), r("tool-owner:" + e.ToolCallID), w("call:" + e.ToolCallID), closer}
	case *agui.ToolCallResult:
		return footprint{w("list"), w("msg:" + e.MessageID), w("owner:" + e.MessageID), r("call:" + e.ToolCallID), closer}
	case *agui.StateSnapshot, *agui.StateDelta:
		return footprint{w(keyState), closer}
	case *agui.MessagesSnapshot:
		return footprint{w(keyAllMessages), closer}
	case *agui.ActivitySnapshot:
		return footprint{w("list"), w("msg:" + e.MessageID), w("activity-owner:" + e.MessageID)}
	case *agui.ActivityDelta:
		return footprint{w("msg:" + e.MessageID), r("activity-owner:" + e.MessageID)}
	case *agui.Custom:
		return footprint{closer}
	case *agui.StepStarted, *agui.StepFinished:
		return footprint{w(keySteps), closer}
	case *agui.ReasoningStart:
		return footprint{w("open-span:" + e.MessageID), w("reasoning-owner:" + e.MessageID), closer}
	case *agui.ReasoningEnd:
		return footprint{w("open-span:" + e.MessageID), r("reasoning-owner:" + e.MessageID), closer}
	case *agui.ReasoningMessageStart:
		return footprint{w("open-reasoning:" + e.MessageID), w("reasoning-owner:" + e.MessageID), w("msg:" + e.MessageID), w("list"), closer}
	case *agui.ReasoningMessageContent:
		return footprint{r("open-reasoning:" + e.MessageID), r("reasoning-owner:" + e.MessageID), w("msg:" + e.MessageID), closer}
	case *agui.ReasoningMessageEnd:
		return footprint{w("open-reasoning:" + e.MessageID), r("reasoning-owner:" + e.MessageID), w("msg:" + e.MessageID), closer}
	case *agui.ReasoningEncryptedValue:
		if e.Subtype == "tool-call" {
			return footprint{r("tool-owner:" + e.EntityID), w("call:" + e.EntityID), r("list")}
		}
		return footprint{r("owner:" + e.EntityID), r("reasoning-owner:" + e.EntityID), w("msg:" + e.EntityID)}
	case *agui.SubagentStarted:
		return footprint{w(keySubagents)}
	case *agui.SubagentFinished, *agui.SubagentError:
		return footprint{w(keySubagents), closer}
	case *agui.TextMessageChunk, *agui.ToolCallChunk, *agui.ReasoningMessageChunk:
		return footprint{w(keyAllMessages), w(keyLane)}
	case *agui.ThinkingStart, *agui.ThinkingEnd, *agui.ThinkingTextMessageStart,
		*agui.ThinkingTextMessageContent, *agui.ThinkingTextMessageEnd:
		return footprint{w(keyAllMessages), closer}
	case *agui.RunStarted, *agui.RunFinished, *agui.RunError:
		// Never moved: compaction cuts at every run boundary.
		return footprint{w(keyAllMessages), w(keyState), w(keyLane), w(keySteps), w(keySubagents)}
	}
	// RAW, unknown types and malformed events change nothing but diagnostics.
	return nil
}

// touched is the union of some events' footprints.
type touched struct {
	keys     map[string]bool // key -> written
	messages bool            // some key is about messages
}

func (t *touched) add(fp footprint) {
	for _, a := range fp {
		if t.keys == nil {
			t.keys = map[string]bool{}
		}
		t.keys[a.key] = t.keys[a.key] || a.write
		if aboutMessages(a.key) {
			t.messages = true
		}
	}
}

// clashes reports whether an event with footprint fp may not be swapped with
// the events t stands for.
func (t *touched) clashes(fp footprint) bool {
	if t.keys == nil {
		return false
	}
	_, all := t.keys[keyAllMessages]
	for _, a := range fp {
		if a.key == keyAllMessages && t.messages {
			return true
		}
		if all && aboutMessages(a.key) {
			return true
		}
		if written, ok := t.keys[a.key]; ok && (written || a.write) {
			return true
		}
	}
	return false
}
