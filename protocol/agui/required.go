package agui

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// checkRequired returns what is missing or wrong in a decoded event, or "".
// A string field that decoded empty is looked up in the raw JSON, since ""
// is a valid value and only absence (or null) is an error.
func checkRequired(ev Event, raw []byte) string {
	need := func(names ...string) string {
		var missing []string
		for _, n := range names {
			if !hasMember(raw, n) {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			return ""
		}
		return "missing required " + strings.Join(quoteAll(missing), ", ")
	}
	switch e := ev.(type) {
	case *RunStarted:
		if e.ThreadID == "" || e.RunID == "" {
			return need("threadId", "runId")
		}
		if e.Input != nil {
			return checkMessages(e.Input.Messages, "input.messages")
		}
	case *RunFinished:
		if e.ThreadID == "" || e.RunID == "" {
			return need("threadId", "runId")
		}
	case *RunError:
		if e.Message == "" {
			return need("message")
		}
	case *StepStarted:
		if e.StepName == "" {
			return need("stepName")
		}
	case *StepFinished:
		if e.StepName == "" {
			return need("stepName")
		}
	case *TextMessageStart:
		if e.MessageID == "" {
			return need("messageId")
		}
		switch e.Role {
		case "", RoleAssistant, RoleUser, RoleSystem, RoleDeveloper:
		default:
			return fmt.Sprintf("role %q is not one of developer, system, assistant, user", e.Role)
		}
	case *TextMessageContent:
		if e.MessageID == "" || e.Delta == "" {
			return need("messageId", "delta")
		}
	case *TextMessageEnd:
		if e.MessageID == "" {
			return need("messageId")
		}
	case *ToolCallStart:
		if e.ToolCallID == "" || e.ToolCallName == "" {
			return need("toolCallId", "toolCallName")
		}
	case *ToolCallArgs:
		if e.ToolCallID == "" || e.Delta == "" {
			return need("toolCallId", "delta")
		}
	case *ToolCallEnd:
		if e.ToolCallID == "" {
			return need("toolCallId")
		}
	case *ToolCallResult:
		if e.MessageID == "" || e.ToolCallID == "" {
			if m := need("messageId", "toolCallId"); m != "" {
				return m
			}
		}
		if !e.Content.Present || e.Content.Object != nil {
			return "content must be a string or an array of content parts"
		}
		if e.Role != "" && e.Role != RoleTool {
			return fmt.Sprintf("role %q must be \"tool\"", e.Role)
		}
		return checkParts(e.Content.Parts, "content")
	case *StateSnapshot:
		if len(e.Snapshot) == 0 {
			return need("snapshot")
		}
	case *StateDelta:
		if e.Delta.Kind() != '[' {
			return "delta must be a JSON Patch array"
		}
	case *MessagesSnapshot:
		if e.Messages == nil && !hasMember(raw, "messages") {
			return need("messages")
		}
		return checkMessages(e.Messages, "messages")
	case *ActivitySnapshot:
		if e.MessageID == "" || e.ActivityType == "" {
			if m := need("messageId", "activityType"); m != "" {
				return m
			}
		}
		if e.Content.Kind() != '{' {
			return "content must be an object"
		}
	case *ActivityDelta:
		if e.MessageID == "" || e.ActivityType == "" {
			if m := need("messageId", "activityType"); m != "" {
				return m
			}
		}
		if e.Patch.Kind() != '[' {
			return "patch must be a JSON Patch array"
		}
	case *Raw:
		if isNull(e.Event) {
			return "event is required and may not be null"
		}
	case *Custom:
		if e.Name == "" {
			if m := need("name"); m != "" {
				return m
			}
		}
		if len(e.Value) == 0 {
			return need("value")
		}
	case *ReasoningStart:
		if e.MessageID == "" {
			return need("messageId")
		}
	case *ReasoningMessageStart:
		if e.MessageID == "" {
			return need("messageId")
		}
		if e.Role != RoleReasoning {
			return fmt.Sprintf("role must be \"reasoning\", got %q", e.Role)
		}
	case *ReasoningMessageContent:
		if e.MessageID == "" || e.Delta == "" {
			return need("messageId", "delta")
		}
	case *ReasoningMessageEnd:
		if e.MessageID == "" {
			return need("messageId")
		}
	case *ReasoningEnd:
		if e.MessageID == "" {
			return need("messageId")
		}
	case *ReasoningEncryptedValue:
		if e.Subtype != "tool-call" && e.Subtype != "message" {
			return fmt.Sprintf("subtype %q is not \"tool-call\" or \"message\"", e.Subtype)
		}
		if e.EntityID == "" || e.EncryptedValue == "" {
			return need("entityId", "encryptedValue")
		}
	}
	return ""
}

func checkMessages(msgs []Message, where string) string {
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case RoleUser, RoleAssistant, RoleSystem, RoleDeveloper, RoleTool, RoleActivity, RoleReasoning:
		default:
			return fmt.Sprintf("%s[%d]: role %q is not a message role", where, i, m.Role)
		}
		if m.ID == "" {
			return fmt.Sprintf("%s[%d]: missing id", where, i)
		}
		if m.Content.Object != nil && m.Role != RoleActivity {
			return fmt.Sprintf("%s[%d]: content of a %s message cannot be an object", where, i, m.Role)
		}
		if m.Role == RoleActivity && m.Content.Object == nil {
			return fmt.Sprintf("%s[%d]: content of an activity message must be an object", where, i)
		}
		if msg := checkParts(m.Content.Parts, fmt.Sprintf("%s[%d].content", where, i)); msg != "" {
			return msg
		}
	}
	return ""
}

func checkParts(parts []ContentPart, where string) string {
	for i, p := range parts {
		switch p.Type {
		case "text":
		case "image", "audio", "video", "document":
			if p.Source == nil {
				return fmt.Sprintf("%s[%d]: %s part has no source", where, i, p.Type)
			}
			switch p.Source.Type {
			case "data", "url", "file":
			default:
				return fmt.Sprintf("%s[%d]: source type %q is not data, url or file", where, i, p.Source.Type)
			}
		default:
			return fmt.Sprintf("%s[%d]: part type %q is not text, image, audio, video or document", where, i, p.Type)
		}
	}
	return ""
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = `"` + v + `"`
	}
	return out
}

// hasMember reports whether the top-level object in raw has a non-null member name.
func hasMember(raw []byte, name string) bool {
	d := jsontext.NewDecoder(bytes.NewReader(raw), decodeOptions)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return false
		}
		if tok.String() == name {
			return d.PeekKind() != 'n'
		}
		if err := d.SkipValue(); err != nil {
			return false
		}
	}
	return false
}
