package fold

import (
	"strconv"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// legacyState translates AG-UI 0.x THINKING_* events into REASONING_* ones,
// pairing them by position as the reference CompatibilityBoundary does. The
// reference mints random ids; ours are derived from the record's Seq so the
// fold stays deterministic ("thinking-<seq>").
type legacyState struct {
	ReasoningID string `json:"reasoningId,omitempty"`
	MessageID   string `json:"messageId,omitempty"`
}

func mintID(seq uint64) string { return "thinking-" + strconv.FormatUint(seq, 10) }

// translate returns the 1.0 event for ev, and a note when an id had to be
// minted for an event that continues nothing.
func (l *legacyState) translate(seq uint64, ev agui.Event) (agui.Event, string) {
	continuation := func(est *string, what string) (string, string) {
		if *est != "" {
			return *est, ""
		}
		return mintID(seq), "no THINKING opener preceded " + what + ", so there was no id to continue; minted " + mintID(seq)
	}
	switch e := ev.(type) {
	case *agui.ThinkingStart:
		l.ReasoningID = mintID(seq)
		b := e.Base
		b.Type = agui.TypeReasoningStart
		return &agui.ReasoningStart{Base: b, MessageID: l.ReasoningID}, ""
	case *agui.ThinkingTextMessageStart:
		l.MessageID = mintID(seq)
		b := e.Base
		b.Type = agui.TypeReasoningMessageStart
		return &agui.ReasoningMessageStart{Base: b, MessageID: l.MessageID, Role: agui.RoleReasoning}, ""
	case *agui.ThinkingTextMessageContent:
		id, note := continuation(&l.MessageID, agui.TypeThinkingTextMessageContent)
		b := e.Base
		b.Type = agui.TypeReasoningMessageContent
		return &agui.ReasoningMessageContent{Base: b, MessageID: id, Delta: e.Delta}, note
	case *agui.ThinkingTextMessageEnd:
		id, note := continuation(&l.MessageID, agui.TypeThinkingTextMessageEnd)
		l.MessageID = ""
		b := e.Base
		b.Type = agui.TypeReasoningMessageEnd
		return &agui.ReasoningMessageEnd{Base: b, MessageID: id}, note
	case *agui.ThinkingEnd:
		id, note := continuation(&l.ReasoningID, agui.TypeThinkingEnd)
		l.ReasoningID = ""
		b := e.Base
		b.Type = agui.TypeReasoningEnd
		return &agui.ReasoningEnd{Base: b, MessageID: id}, note
	}
	return ev, ""
}
