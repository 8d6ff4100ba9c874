package copilot

import (
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// userMessage shows what the user wrote, with what they attached named
// after it, and starts the run it asks for: the run before it ends there.
// A subagent's prompt (an event with an agentId) is that subagent's and
// starts nothing; text a skill adds unseen is not the user's.
func (t *Translator) userMessage(at time.Time, ev *Event, d *UserMessageData) {
	if strings.HasPrefix(d.Source, "skill-") {
		return
	}
	text := promptText(d)
	if ev.AgentID != "" {
		if t.run == "" || text == "" {
			return
		}
		t.message(at, t.subOf(ev.AgentID, ""), "user-"+ev.ID, "user", text)
		return
	}
	if t.run != "" {
		t.closeRun(at, "")
	}
	t.openRun(at, ev.ID)
	if text != "" {
		t.message(at, "", "user-"+idOr(ev.ID, t.nextID("user")), "user", text)
	}
}

// promptText is a user's message as the fold shows it: its text, then a
// line naming each attachment.
func promptText(d *UserMessageData) string {
	parts := []string{}
	if s := strings.TrimSpace(d.Content); s != "" {
		parts = append(parts, d.Content)
	}
	for _, a := range d.Attachments {
		what := a.Path
		if what == "" {
			what = a.FilePath
		}
		if what == "" {
			what = a.URL
		}
		if what == "" {
			what = a.DisplayName
		}
		kind := a.Type
		if kind == "" {
			kind = "attachment"
		}
		parts = append(parts, "["+strings.TrimSpace(kind+" "+what)+"]")
	}
	return strings.Join(parts, "\n")
}

// assistantMessage shows the agent's reasoning and text. The main agent's
// message that asks for tools says its turn is not the run's last.
func (t *Translator) assistantMessage(at time.Time, ev *Event, d *MessageData) {
	t.ensureRun(at, "")
	sub := t.subOf(ev.AgentID, d.ParentToolCallID)
	if sub == "" {
		t.more = len(d.ToolRequests) > 0
	}
	for _, r := range d.ToolRequests {
		if r.ToolCallID != "" && len(t.asked) < maxRemembered {
			t.asked[r.ToolCallID] = r
		}
	}
	t.reasoning(at, sub, d.ReasoningText)
	if strings.TrimSpace(d.Content) == "" {
		return
	}
	t.message(at, sub, idOr(d.MessageID, "assistant-"+idOr(ev.ID, t.nextID("assistant"))), "assistant", d.Content)
}

// message sends a whole text message of role.
func (t *Translator) message(at time.Time, sub, id, role, text string) {
	t.emit(at, sub, map[string]any{"type": agui.TypeTextMessageStart, "messageId": id, "role": role})
	t.emit(at, sub, map[string]any{"type": agui.TypeTextMessageContent, "messageId": id, "delta": text})
	t.emit(at, sub, map[string]any{"type": agui.TypeTextMessageEnd, "messageId": id})
}

// reasoning shows the agent's reasoning, once however often it is written
// in the run (an assistant.reasoning and its message's reasoningText).
func (t *Translator) reasoning(at time.Time, sub, text string) {
	if strings.TrimSpace(text) == "" || t.shown[text] {
		return
	}
	if len(t.shown) < maxRemembered {
		t.shown[text] = true
	}
	id := t.nextID("reasoning")
	t.emit(at, sub, map[string]any{"type": agui.TypeReasoningStart, "messageId": id})
	t.emit(at, sub, map[string]any{"type": agui.TypeReasoningMessageStart, "messageId": id, "role": "reasoning"})
	t.emit(at, sub, map[string]any{"type": agui.TypeReasoningMessageContent, "messageId": id, "delta": text})
	t.emit(at, sub, map[string]any{"type": agui.TypeReasoningMessageEnd, "messageId": id})
	t.emit(at, sub, map[string]any{"type": agui.TypeReasoningEnd, "messageId": id})
}

// compaction marks where Copilot compacted the conversation, with the
// summary it goes on from and what it saved.
func (t *Translator) compaction(at time.Time, ev *Event, d *CompactionData) {
	t.ensureRun(at, "")
	v := map[string]any{}
	if d.SummaryContent != "" {
		v["summary"] = d.SummaryContent
	}
	if d.Trigger != "" {
		v["trigger"] = d.Trigger
	}
	if d.Success != nil && !*d.Success {
		v["failed"] = true
		if d.Error != "" {
			v["error"] = d.Error
		}
	}
	for k, n := range map[string]*int64{"preCompactionTokens": d.PreCompactionTokens,
		"postCompactionTokens": d.PostCompactionTokens, "messagesRemoved": d.MessagesRemoved} {
		if n != nil {
			v[k] = *n
		}
	}
	t.emit(at, t.subOf(ev.AgentID, ""), map[string]any{"type": agui.TypeCustom, "name": "compaction", "value": v})
}

// sessionError shows an error Copilot reported (a model call that failed,
// perhaps to be retried) as an error activity of the run; the run goes on.
func (t *Translator) sessionError(at time.Time, ev *Event, d *ErrorData) {
	t.ensureRun(at, "")
	content := map[string]any{"message": d.Message}
	if d.ErrorType != "" {
		content["errorType"] = d.ErrorType
	}
	if d.ErrorCode != "" {
		content["errorCode"] = d.ErrorCode
	}
	if d.StatusCode != 0 {
		content["statusCode"] = d.StatusCode
	}
	t.emit(at, t.subOf(ev.AgentID, ""), map[string]any{"type": agui.TypeActivitySnapshot,
		"messageId": "error-" + idOr(ev.ID, t.nextID("error")), "activityType": "error", "content": content})
}

// idOr is id, or alt when id is empty.
func idOr(id, alt string) string {
	if id == "" {
		return alt
	}
	return id
}
