package gemini

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// message reads a message record: the first of its id, or the same
// message written again with more in it.
func (t *Translator) message(m *Message) {
	at := parseTime(m.Timestamp)
	s, live := t.live[m.ID]
	if !live {
		if _, seen := t.runOf[m.ID]; seen {
			return // done and forgotten, or rewound away: nothing more shows
		}
	}
	switch m.Type {
	case "user":
		text, prompt := promptText(m)
		if prompt && t.parent != nil {
			// A subagent's task: its first message, in the session's run.
			t.remember(m.ID)
			if t.run != "" {
				t.text(at, "user-"+m.ID, "user", text)
			}
			return
		}
		if prompt {
			t.startRun(at, m.ID)
			t.remember(m.ID)
			t.text(at, "user-"+m.ID, "user", text)
			return
		}
		t.remember(m.ID)
	case "gemini":
		if !live {
			if t.parent == nil {
				t.ensureRun(at, m.ID)
			}
			t.remember(m.ID)
			s = &shown{run: t.run, calls: map[string]bool{}}
			if len(t.live) < maxRemembered {
				t.live[m.ID] = s
			}
		}
		t.response(at, m, s)
	case "info", "warning":
		t.remember(m.ID)
		if t.run == "" {
			return
		}
		text := contentText(m.Content)
		if text == "" {
			return
		}
		t.emit(at, map[string]any{"type": agui.TypeActivitySnapshot, "messageId": m.ID, "activityType": m.Type,
			"content": map[string]any{"message": text}})
	case "error":
		if t.parent != nil {
			// The subagent failed: its run ends with the error.
			t.remember(m.ID)
			t.failSubagent(at, contentText(m.Content))
			return
		}
		t.ensureRun(at, m.ID)
		t.remember(m.ID)
		t.closeSubagents(at)
		t.emit(at, map[string]any{"type": agui.TypeRunError, "message": contentText(m.Content), "code": "error"})
		t.run = ""
		clear(t.usage)
	}
}

// response shows what is new in a gemini message: its model and tokens,
// thoughts added, its text the first time it has some, calls first seen,
// and results of calls now done. A message of a run that ended shows
// nothing more: AG-UI has no event after a run's end, and the fold
// settles the steps its calls left running.
func (t *Translator) response(at time.Time, m *Message, s *shown) {
	open := s.run != "" && s.run == t.run
	if open && m.Model != "" {
		t.state.Model = m.Model
		t.sendState(at)
	}
	if open && m.Tokens != nil {
		t.usage[m.ID] = *m.Tokens
	}
	for i := s.thoughts; i < len(m.Thoughts) && open; i++ {
		t.thought(m, i)
	}
	s.thoughts = max(s.thoughts, len(m.Thoughts))
	if !s.text {
		if text := contentText(m.Content); text != "" {
			s.text = true
			if open {
				t.text(at, m.ID, "assistant", text)
			}
		}
	}
	for i := range m.ToolCalls {
		c := &m.ToolCalls[i]
		if c.ID == "" {
			continue
		}
		done, started := s.calls[c.ID]
		if !started {
			if !open || !t.newCall(c.ID) {
				s.calls[c.ID] = true
				continue
			}
			t.startCall(at, m.ID, c)
			s.calls[c.ID] = false
		}
		if !done && terminal(c.Status) {
			if open {
				t.ranSubagent(at, c)
				t.result(at, c)
			}
			s.calls[c.ID] = true
		}
	}
}

// thought shows a message's thought i as reasoning: its subject, then
// what it says.
func (t *Translator) thought(m *Message, i int) {
	th := m.Thoughts[i]
	text := strings.TrimSpace(th.Description)
	if th.Subject != "" {
		text = strings.TrimSpace("**" + th.Subject + "**\n\n" + text)
	}
	if text == "" {
		return
	}
	at := parseTime(th.Timestamp)
	if at.IsZero() {
		at = parseTime(m.Timestamp)
	}
	id := "thought-" + m.ID + "-" + itoa(i)
	t.emit(at, map[string]any{"type": agui.TypeReasoningStart, "messageId": id})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageStart, "messageId": id, "role": "reasoning"})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageContent, "messageId": id, "delta": text})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageEnd, "messageId": id})
	t.emit(at, map[string]any{"type": agui.TypeReasoningEnd, "messageId": id})
}

// text sends a whole text message of role.
func (t *Translator) text(at time.Time, id, role, text string) {
	if id == "" {
		id = t.nextID("msg")
	}
	t.emit(at, map[string]any{"type": agui.TypeTextMessageStart, "messageId": id, "role": role})
	if text != "" {
		t.emit(at, map[string]any{"type": agui.TypeTextMessageContent, "messageId": id, "delta": text})
	}
	t.emit(at, map[string]any{"type": agui.TypeTextMessageEnd, "messageId": id})
}

// promptText is what the person typed in a user message (its
// displayContent when it has one) and whether it is a prompt at all: a
// user message that carries tool responses back to the model is not.
func promptText(m *Message) (string, bool) {
	for _, p := range parts(m.Content) {
		if p.FunctionResponse != nil {
			return "", false
		}
	}
	text := contentText(m.DisplayContent)
	if text == "" {
		text = contentText(m.Content)
	}
	return text, strings.TrimSpace(text) != ""
}

// contentText is the text of a message's content, a paragraph a part;
// thoughts the model keeps for itself are not in it.
func contentText(raw json.RawMessage) string {
	var texts []string
	for _, p := range parts(raw) {
		if p.Text != nil && !p.Thought && strings.TrimSpace(*p.Text) != "" {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n\n")
}

// parts reads content as the Gemini API's PartListUnion: a string (one
// text part), a part, or a list of parts and strings.
func parts(raw json.RawMessage) []Part {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		return []Part{{Text: &s}}
	case '{':
		var p Part
		if json.Unmarshal(raw, &p) != nil {
			return nil
		}
		return []Part{p}
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		var out []Part
		for _, it := range items {
			if it = trimSpace(it); len(it) > 0 && it[0] != '[' {
				out = append(out, parts(it)...)
			}
		}
		return out
	}
	return nil
}

func trimSpace(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(strings.TrimSpace(string(raw)))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
