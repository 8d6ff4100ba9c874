package agui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeOptions tolerate what real producers write: duplicate member names
// (last wins, as in JavaScript) and invalid UTF-8 (replaced, not rejected).
var decodeOptions = json.JoinOptions(
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v, decodeOptions) }

func marshal(v any) ([]byte, error) { return json.Marshal(v, json.Deterministic(true)) }

// Decode turns one JSON value into an AG-UI event. It never fails: a value
// that is not an object becomes *model.Unreadable, an unknown type *Unknown,
// and a known type with a malformed field *Malformed. Input that only a
// lenient reader accepts (invalid UTF-8, a member given twice) is first
// normalised (see Normalize), so every decoded event holds strict JSON.
func Decode(raw []byte) model.Event {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	ev, strictOK := decode(raw)
	if strictOK {
		return ev
	}
	if clean, ok := Normalize(raw); ok && !bytes.Equal(clean, raw) {
		ev, _ = decode(clean)
	}
	return ev
}

// decode decodes strictly; false means the bytes themselves were at fault
// or the event is malformed, and a normalised copy may decode better.
func decode(raw []byte) (model.Event, bool) {
	typ, ok := peekType(raw)
	if !ok || hasTwoTypes(raw) {
		var probe struct {
			Type jsontext.Value `json:"type"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}, false
		}
		if probe.Type.Kind() != '"' {
			if len(probe.Type) == 0 {
				return &model.Unreadable{Reason: "event has no \"type\" member", Offset: -1}, true
			}
			return &model.Unreadable{Reason: "event \"type\" is not a string", Offset: -1}, true
		}
		_ = json.Unmarshal(probe.Type, &typ)
		if typ == "" {
			return &model.Unreadable{Reason: "event \"type\" is empty", Offset: -1}, true
		}
	}
	newEvent, known := constructors[typ]
	if !known {
		u := &Unknown{}
		if err := json.Unmarshal(raw, u); err != nil {
			if !jsontext.Value(raw).IsValid(decodeOptions) {
				return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}, false
			}
			// Only the common fields are read; when even those are off, keep the type.
			u = &Unknown{}
		}
		u.Type = typ
		return u, true
	}
	ev := newEvent()
	if err := json.Unmarshal(raw, ev); err != nil {
		return malformed(typ, raw, cleanErr(err)), false
	}
	if msg := checkRequired(ev, raw); msg != "" {
		return malformed(typ, raw, msg), true
	}
	return ev, true
}

// hasTwoTypes reports a second "type" member, whose value (the last, as in
// JavaScript) then decides the type rather than the first one peekType saw.
func hasTwoTypes(raw []byte) bool {
	first := bytes.Index(raw, []byte(`"type"`))
	return first >= 0 && bytes.Contains(raw[first+6:], []byte(`"type"`)) && countTypeMembers(raw) > 1
}

func countTypeMembers(raw []byte) int {
	d := jsontext.NewDecoder(bytes.NewReader(raw), decodeOptions)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0
	}
	n := 0
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return n
		}
		if tok.String() == "type" {
			n++
		}
		if d.SkipValue() != nil {
			return n
		}
	}
	return n
}

func malformed(typ string, raw []byte, msg string) *Malformed {
	m := &Malformed{Err: errors.New(msg)}
	// The common fields are still useful (timestamp for pacing, subagent tag).
	_ = unmarshal(raw, &struct {
		*Base
	}{&m.Base})
	m.Type = typ
	return m
}

// cleanErr shortens the JSON library's messages to what a user needs.
func cleanErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	return s
}

// Time returns the event's own timestamp (ms since the Unix epoch), and false
// when the event carries none.
func Time(ev model.Event) (time.Time, bool) {
	e, ok := ev.(Event)
	if !ok {
		return time.Time{}, false
	}
	ts := e.Common().Timestamp
	if !ts.Valid {
		return time.Time{}, false
	}
	return ts.Time(), true
}

// peekType reads `"type":"X"` when it is the first member and X has no
// escapes, which is how every producer we know writes events. Anything else
// falls back to a full parse.
func peekType(raw []byte) (string, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return "", false
	}
	i = skipSpace(raw, i+1)
	if !bytes.HasPrefix(raw[i:], []byte(`"type"`)) {
		return "", false
	}
	i = skipSpace(raw, i+6)
	if i >= len(raw) || raw[i] != ':' {
		return "", false
	}
	i = skipSpace(raw, i+1)
	if i >= len(raw) || raw[i] != '"' {
		return "", false
	}
	start := i + 1
	for j := start; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			if j == start {
				return "", false
			}
			return string(raw[start:j]), true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

var constructors = map[string]func() Event{
	TypeRunStarted:                 func() Event { return &RunStarted{} },
	TypeRunFinished:                func() Event { return &RunFinished{} },
	TypeRunError:                   func() Event { return &RunError{} },
	TypeStepStarted:                func() Event { return &StepStarted{} },
	TypeStepFinished:               func() Event { return &StepFinished{} },
	TypeTextMessageStart:           func() Event { return &TextMessageStart{} },
	TypeTextMessageContent:         func() Event { return &TextMessageContent{} },
	TypeTextMessageEnd:             func() Event { return &TextMessageEnd{} },
	TypeTextMessageChunk:           func() Event { return &TextMessageChunk{} },
	TypeToolCallStart:              func() Event { return &ToolCallStart{} },
	TypeToolCallArgs:               func() Event { return &ToolCallArgs{} },
	TypeToolCallEnd:                func() Event { return &ToolCallEnd{} },
	TypeToolCallChunk:              func() Event { return &ToolCallChunk{} },
	TypeToolCallResult:             func() Event { return &ToolCallResult{} },
	TypeStateSnapshot:              func() Event { return &StateSnapshot{} },
	TypeStateDelta:                 func() Event { return &StateDelta{} },
	TypeMessagesSnapshot:           func() Event { return &MessagesSnapshot{} },
	TypeActivitySnapshot:           func() Event { return &ActivitySnapshot{} },
	TypeActivityDelta:              func() Event { return &ActivityDelta{} },
	TypeRaw:                        func() Event { return &Raw{} },
	TypeCustom:                     func() Event { return &Custom{} },
	TypeReasoningStart:             func() Event { return &ReasoningStart{} },
	TypeReasoningMessageStart:      func() Event { return &ReasoningMessageStart{} },
	TypeReasoningMessageContent:    func() Event { return &ReasoningMessageContent{} },
	TypeReasoningMessageEnd:        func() Event { return &ReasoningMessageEnd{} },
	TypeReasoningMessageChunk:      func() Event { return &ReasoningMessageChunk{} },
	TypeReasoningEnd:               func() Event { return &ReasoningEnd{} },
	TypeReasoningEncryptedValue:    func() Event { return &ReasoningEncryptedValue{} },
	TypeSubagentStarted:            func() Event { return &SubagentStarted{} },
	TypeSubagentFinished:           func() Event { return &SubagentFinished{} },
	TypeSubagentError:              func() Event { return &SubagentError{} },
	TypeThinkingStart:              func() Event { return &ThinkingStart{} },
	TypeThinkingEnd:                func() Event { return &ThinkingEnd{} },
	TypeThinkingTextMessageStart:   func() Event { return &ThinkingTextMessageStart{} },
	TypeThinkingTextMessageContent: func() Event { return &ThinkingTextMessageContent{} },
	TypeThinkingTextMessageEnd:     func() Event { return &ThinkingTextMessageEnd{} },
}

// Known reports whether typ is an AG-UI 1.0 or legacy event type.
func Known(typ string) bool { _, ok := constructors[typ]; return ok }

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

// UnmarshalValue decodes a JSON value with the same tolerance as Decode.
func UnmarshalValue(b []byte, v any) error { return unmarshal(b, v) }

// MarshalValue encodes v deterministically (object keys sorted).
func MarshalValue(v any) ([]byte, error) { return marshal(v) }
