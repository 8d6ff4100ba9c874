package claude

import (
	"encoding/json"
	"strings"
	"time"
)

// blocks reads a message's content: a string is one text block.
func blocks(raw json.RawMessage) []Block {
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		return []Block{{Type: "text", Text: s}}
	}
	var bs []Block
	if json.Unmarshal(raw, &bs) != nil {
		return nil
	}
	return bs
}

// user reads a user line: tool results complete their steps; a compaction's
// summary fills its marker; a prompt typed by the person starts a run.
// Lines Claude Code adds itself (isMeta: command output, caveats) show
// nothing.
func (t *Translator) user(l *Line, at time.Time) {
	if l.Message == nil {
		return
	}
	bs := blocks(l.Message.Content)
	if l.IsCompactSummary {
		t.compactSummary(l, bs, at)
		return
	}
	results := false
	for i := range bs {
		if bs[i].Type == "tool_result" {
			results = true
			t.ensureRun(l, at)
			t.result(&bs[i], l.ToolUseResult, at)
		}
	}
	if results || l.IsMeta || l.IsSidechain {
		return
	}
	text, ok := promptText(bs)
	if !ok {
		return
	}
	t.startRun(l, at)
	if note, ok := taskNotification(text); ok {
		// Claude Code tells the agent a background task ended: the agent
		// acts on it, but the person typed nothing.
		t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "notification-" + l.UUID, "activityType": "notification", "content": note})
		return
	}
	t.message(at, "user-"+l.UUID, "user", text)
}

// taskNotification reads the notice Claude Code writes as a user message
// when a background task ends (<task-notification> with its id, status and
// summary).
func taskNotification(s string) (map[string]any, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "<task-notification>") {
		return nil, false
	}
	note := map[string]any{"kind": "task"}
	for _, tag := range []string{"task-id", "status", "summary", "output-file"} {
		if v := tagText(s, tag); v != "" {
			note[strings.ReplaceAll(tag, "-", "_")] = v
		}
	}
	return note, true
}

// slashCommand is a slash command the person typed as they typed it
// ("/compact keep the tests"): Claude Code writes it as tags. Any other
// text is itself.
func slashCommand(s string) string {
	name := tagText(s, "command-name")
	if name == "" || !strings.HasPrefix(strings.TrimSpace(s), "<command-") {
		return s
	}
	if args := tagText(s, "command-args"); args != "" {
		return name + " " + args
	}
	return name
}

// tagText is the text between <tag> and </tag> in s, trimmed ("" when
// there is none).
func tagText(s, tag string) string {
	open, end := "<"+tag+">", "</"+tag+">"
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	rest := s[i+len(open):]
	j := strings.Index(rest, end)
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}

// promptText is the text of the message a prompt's blocks make (false
// when they make none): its texts, and its pictures named.
func promptText(bs []Block) (string, bool) {
	var text []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "image":
			// A picture in a prompt is named in its text: AG-UI's user
			// message as the fold shows it is text.
			if b.Source != nil {
				text = append(text, "[image "+b.Source.MediaType+"]")
			}
		}
	}
	if len(text) == 0 {
		return "", false
	}
	return slashCommand(strings.Join(text, "\n\n")), true
}

// message emits a whole text message.
func (t *Translator) message(at time.Time, id, role, text string) {
	t.emit(at, map[string]any{"type": "TEXT_MESSAGE_START", "messageId": id, "role": role})
	if text != "" {
		t.emit(at, map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": text})
	}
	t.emit(at, map[string]any{"type": "TEXT_MESSAGE_END", "messageId": id})
}

// assistant reads an assistant line: one content block of a response
// whose lines share message.id. Each block is shown as it comes, so the
// lines of one response need not be gathered.
func (t *Translator) assistant(l *Line, at time.Time) {
	if l.Message == nil || l.IsSidechain {
		return
	}
	t.ensureRun(l, at)
	if t.blocks(l, at) && (l.Message.StopReason == "end_turn" || l.Message.StopReason == "stop_sequence") {
		t.endRun(at)
	}
}

// blocks shows the content blocks of an assistant line, the session's or
// a subagent's. It reports false for an API error, which ends the run.
func (t *Translator) blocks(l *Line, at time.Time) bool {
	if l.Message == nil {
		return true
	}
	msg := l.Message.ID
	if msg == "" {
		msg = "assistant-" + l.UUID
	}
	if l.IsAPIErrorMessage {
		if t.agent != "" {
			// A subagent's failed request: its own error row.
			t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "api-error-" + l.UUID, "activityType": "error",
				"content": map[string]any{"message": textOf(blocks(l.Message.Content)), "code": apiErrorCode(l)}})
			return true
		}
		t.closeSubs(at)
		t.emit(at, map[string]any{"type": "RUN_ERROR", "message": textOf(blocks(l.Message.Content)), "code": apiErrorCode(l)})
		t.run = ""
		return false
	}
	for _, b := range blocks(l.Message.Content) {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			// Each text block is a message of its own: a response may
			// hold several, and each line is read alone.
			t.message(at, msg+"-"+l.UUID, "assistant", b.Text)
		case "thinking", "redacted_thinking":
			if b.Thinking == "" {
				continue
			}
			id := "thinking-" + msg + "-" + l.UUID
			t.emit(at, map[string]any{"type": "REASONING_START", "messageId": id})
			t.emit(at, map[string]any{"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"})
			t.emit(at, map[string]any{"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": b.Thinking})
			t.emit(at, map[string]any{"type": "REASONING_MESSAGE_END", "messageId": id})
			t.emit(at, map[string]any{"type": "REASONING_END", "messageId": id})
		case "tool_use", "server_tool_use":
			t.call(&b, msg, at)
		}
	}
	return true
}

// system reads a system line: compaction, API errors being retried;
// the rest (turn durations, hook summaries, local commands) shows nothing.
func (t *Translator) system(l *Line, at time.Time) {
	switch l.Subtype {
	case "compact_boundary":
		t.ensureRun(l, at)
		id := "compaction-" + l.UUID
		t.compacts[l.UUID] = id
		content := map[string]any{"content": stringOf(l.Content)}
		if len(l.CompactMetadata) > 0 && json.Valid(l.CompactMetadata) {
			content["metadata"] = json.RawMessage(l.CompactMetadata)
		}
		t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "compaction", "content": content})
	case "api_error":
		t.ensureRun(l, at)
		content := map[string]any{"retryAttempt": l.RetryAttempt, "maxRetries": l.MaxRetries}
		if len(l.Error) > 0 && json.Valid(l.Error) {
			content["error"] = json.RawMessage(l.Error)
		}
		t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "api-error-" + l.UUID, "activityType": "error", "content": content})
	}
}

// compactSummary puts the summary Claude Code continues from into the
// compaction's marker, not into the conversation as a user message.
func (t *Translator) compactSummary(l *Line, bs []Block, at time.Time) {
	id, ok := t.compacts[l.ParentUUID]
	if !ok {
		id = "compaction-" + l.UUID
		t.ensureRun(l, at)
	}
	t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": id, "activityType": "compaction",
		"content": map[string]any{"content": "Conversation compacted", "summary": textOf(bs)}})
}

// title shows a title Claude Code gave the session, or its user did.
func (t *Translator) title(at time.Time, source, title string) {
	if title == "" {
		return
	}
	t.emit(at, map[string]any{"type": "CUSTOM", "name": "title", "value": map[string]any{"title": title, "source": source}})
}

func textOf(bs []Block) string {
	var s []string
	for _, b := range bs {
		if b.Type == "text" && b.Text != "" {
			s = append(s, b.Text)
		}
	}
	return strings.Join(s, "\n\n")
}

func stringOf(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// apiErrorCode is an API error message's code: its error name, else its
// HTTP status.
func apiErrorCode(l *Line) string {
	if s := stringOf(l.Error); s != "" {
		return s
	}
	if l.APIErrorStatus != 0 {
		return itoa(uint64(l.APIErrorStatus))
	}
	return "api_error"
}

// imagePart is an image block as an AG-UI content part.
func imagePart(src *ImageSource) map[string]any {
	switch {
	case src == nil:
		return nil
	case src.Type == "base64" && src.Data != "":
		return map[string]any{"type": "image", "source": map[string]any{"type": "data", "value": src.Data, "mimeType": src.MediaType}}
	case src.Type == "url" && src.URL != "":
		return map[string]any{"type": "image", "source": map[string]any{"type": "url", "value": src.URL}}
	}
	return nil
}
