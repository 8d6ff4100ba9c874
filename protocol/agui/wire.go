package agui

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Fields is a set of the optional string fields of Message, ToolCall,
// ContentPart and PartSource.
//
// Those types hold such a field as a plain string, which cannot tell an
// absent field from one sent as "". Each keeps the difference in its Empty
// set instead: a field in it was present with the value "". Encoding writes
// a field when it is non-empty or in Empty, so a message decoded and encoded
// again has exactly the fields it came with, as the reference client's
// messages do. A value built in Go needs no Empty unless it means to keep "".
type Fields uint16

// The optional string fields a Fields set can name.
const (
	FieldName           Fields = 1 << iota // Message.Name
	FieldToolCallID                        // Message.ToolCallID
	FieldError                             // Message.Error
	FieldActivityType                      // Message.ActivityType
	FieldEncryptedValue                    // Message.EncryptedValue, ToolCall.EncryptedValue
	FieldText                              // ContentPart.Text
	FieldID                                // ContentPart.ID
	FieldMimeType                          // PartSource.MimeType
	FieldProvider                          // PartSource.Provider
)

// Has reports whether f holds every field of g.
func (f Fields) Has(g Fields) bool { return f&g == g }

// mark returns f holding field exactly when value is empty: what setting the
// field to value (present) does to the set of present-but-empty fields.
func (f Fields) mark(field Fields, value string) Fields {
	if value == "" {
		return f | field
	}
	return f &^ field
}

// opt is the wire form of an optional string field: written when non-empty
// or present-but-empty.
func (f Fields) opt(field Fields, value string) OptString {
	if value != "" || f.Has(field) {
		return Some(value)
	}
	return OptString{}
}

// take reads an optional string field from the wire into *dst, noting it in
// *empty when it was present but empty. Null reads as absent; a field the
// object's kind does not define (not in allowed) is dropped, as the
// reference's enforcement stage strips it.
func take(o OptString, field, allowed Fields, dst *string, empty *Fields) {
	if !o.IsSet() || !allowed.Has(field) {
		return
	}
	*dst = o.Value
	if o.Value == "" {
		*empty |= field
	}
}

// anyFields is every optional field: what an object of a kind AG-UI does not
// define keeps (such an event is reported malformed anyway).
const anyFields = FieldName | FieldToolCallID | FieldError | FieldActivityType | FieldEncryptedValue |
	FieldText | FieldID | FieldMimeType | FieldProvider

// roleFields are the optional string fields each message role defines
// (AG-UI 1.0 Message union); the others are dropped on decoding.
var roleFields = map[Role]Fields{
	RoleDeveloper: FieldName | FieldEncryptedValue,
	RoleSystem:    FieldName | FieldEncryptedValue,
	RoleAssistant: FieldName | FieldEncryptedValue,
	RoleUser:      FieldName | FieldEncryptedValue,
	RoleTool:      FieldToolCallID | FieldError | FieldEncryptedValue,
	RoleActivity:  FieldActivityType,
	RoleReasoning: FieldEncryptedValue,
}

// messageWire is Message as JSON: every optional field knows whether it was there.
type messageWire struct {
	ID             string     `json:"id"`
	Role           Role       `json:"role"`
	Content        Content    `json:"content,omitzero"`
	Name           OptString  `json:"name,omitzero"`
	ToolCalls      []ToolCall `json:"toolCalls,omitzero"`
	ToolCallID     OptString  `json:"toolCallId,omitzero"`
	Error          OptString  `json:"error,omitzero"`
	ActivityType   OptString  `json:"activityType,omitzero"`
	EncryptedValue OptString  `json:"encryptedValue,omitzero"`
	Metadata       Metadata   `json:"metadata,omitzero"`
	SubagentRunID  OptString  `json:"subagentRunId,omitzero"`
}

// UnmarshalJSONFrom reads a message, keeping the fields its role defines:
// present-but-empty ones are noted in Empty (an empty toolCalls list stays
// an empty, non-nil slice), null ones read as absent. An unknown role keeps
// every field, for the diagnostic.
func (m *Message) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var w messageWire
	if err := json.UnmarshalDecode(d, &w); err != nil {
		return err
	}
	*m = Message{ID: w.ID, Role: w.Role, Content: w.Content, Metadata: w.Metadata, SubagentRunID: w.SubagentRunID}
	allowed, known := roleFields[w.Role]
	if !known {
		allowed = anyFields
	}
	take(w.Name, FieldName, allowed, &m.Name, &m.Empty)
	take(w.ToolCallID, FieldToolCallID, allowed, &m.ToolCallID, &m.Empty)
	take(w.Error, FieldError, allowed, &m.Error, &m.Empty)
	take(w.ActivityType, FieldActivityType, allowed, &m.ActivityType, &m.Empty)
	take(w.EncryptedValue, FieldEncryptedValue, allowed, &m.EncryptedValue, &m.Empty)
	if w.Role == RoleAssistant || !known {
		m.ToolCalls = w.ToolCalls
	}
	return nil
}

// MarshalJSONTo writes the message with its present fields, empty or not.
func (m Message) MarshalJSONTo(e *jsontext.Encoder) error {
	w := messageWire{
		ID: m.ID, Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls,
		Metadata: m.Metadata, SubagentRunID: m.SubagentRunID,
		Name:           m.Empty.opt(FieldName, m.Name),
		ToolCallID:     m.Empty.opt(FieldToolCallID, m.ToolCallID),
		Error:          m.Empty.opt(FieldError, m.Error),
		ActivityType:   m.Empty.opt(FieldActivityType, m.ActivityType),
		EncryptedValue: m.Empty.opt(FieldEncryptedValue, m.EncryptedValue),
	}
	return json.MarshalEncode(e, &w)
}

// SetName sets Name, written even when empty.
func (m *Message) SetName(v string) {
	m.Name, m.Empty = v, m.Empty.mark(FieldName, v)
}

// SetToolCallID sets ToolCallID, written even when empty.
func (m *Message) SetToolCallID(v string) {
	m.ToolCallID, m.Empty = v, m.Empty.mark(FieldToolCallID, v)
}

// SetActivityType sets ActivityType, written even when empty.
func (m *Message) SetActivityType(v string) {
	m.ActivityType, m.Empty = v, m.Empty.mark(FieldActivityType, v)
}

// SetEncryptedValue sets EncryptedValue, written even when empty.
func (m *Message) SetEncryptedValue(v string) {
	m.EncryptedValue, m.Empty = v, m.Empty.mark(FieldEncryptedValue, v)
}

// toolCallWire is ToolCall as JSON.
type toolCallWire struct {
	ID             string       `json:"id"`
	Type           string       `json:"type"`
	Function       FunctionCall `json:"function"`
	EncryptedValue OptString    `json:"encryptedValue,omitzero"`
	Metadata       Metadata     `json:"metadata,omitzero"`
}

// UnmarshalJSONFrom reads a tool call, noting a present-but-empty encryptedValue.
func (tc *ToolCall) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var w toolCallWire
	if err := json.UnmarshalDecode(d, &w); err != nil {
		return err
	}
	*tc = ToolCall{ID: w.ID, Type: w.Type, Function: w.Function, Metadata: w.Metadata}
	take(w.EncryptedValue, FieldEncryptedValue, FieldEncryptedValue, &tc.EncryptedValue, &tc.Empty)
	return nil
}

// MarshalJSONTo writes the tool call with its present fields, empty or not.
func (tc ToolCall) MarshalJSONTo(e *jsontext.Encoder) error {
	return json.MarshalEncode(e, &toolCallWire{
		ID: tc.ID, Type: tc.Type, Function: tc.Function, Metadata: tc.Metadata,
		EncryptedValue: tc.Empty.opt(FieldEncryptedValue, tc.EncryptedValue),
	})
}

// SetEncryptedValue sets EncryptedValue, written even when empty.
func (tc *ToolCall) SetEncryptedValue(v string) {
	tc.EncryptedValue, tc.Empty = v, tc.Empty.mark(FieldEncryptedValue, v)
}

// partFields are the optional fields of each content part kind.
var partFields = map[string]Fields{
	"text":     FieldText | FieldID,
	"image":    FieldID,
	"audio":    FieldID,
	"video":    FieldID,
	"document": FieldID,
}

// partWire is ContentPart as JSON.
type partWire struct {
	Type     string         `json:"type"`
	Text     OptString      `json:"text,omitzero"`
	ID       OptString      `json:"id,omitzero"`
	Source   *PartSource    `json:"source,omitzero"`
	Metadata jsontext.Value `json:"metadata,omitzero"`
}

// UnmarshalJSONFrom reads a content part, keeping the fields its kind
// defines: a text part has no source, a media part no text. A null metadata
// reads as absent, as the reference's compatibility stage makes it.
func (p *ContentPart) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var w partWire
	if err := json.UnmarshalDecode(d, &w); err != nil {
		return err
	}
	*p = ContentPart{Type: w.Type}
	allowed, known := partFields[w.Type]
	if !known {
		allowed = anyFields
	}
	take(w.Text, FieldText, allowed, &p.Text, &p.Empty)
	take(w.ID, FieldID, allowed, &p.ID, &p.Empty)
	if w.Type != "text" {
		p.Source = w.Source
	}
	if !isNull(w.Metadata) {
		p.Metadata = w.Metadata
	}
	return nil
}

// MarshalJSONTo writes the part with its present fields, empty or not.
func (p ContentPart) MarshalJSONTo(e *jsontext.Encoder) error {
	return json.MarshalEncode(e, &partWire{
		Type: p.Type, Source: p.Source, Metadata: p.Metadata,
		Text: p.Empty.opt(FieldText, p.Text),
		ID:   p.Empty.opt(FieldID, p.ID),
	})
}

// sourceFields are the optional fields of each part source kind.
var sourceFields = map[string]Fields{
	"data": FieldMimeType,
	"url":  FieldMimeType,
	"file": FieldMimeType | FieldProvider,
}

// sourceWire is PartSource as JSON.
type sourceWire struct {
	Type     string    `json:"type"`
	Value    string    `json:"value"`
	MimeType OptString `json:"mimeType,omitzero"`
	Provider OptString `json:"provider,omitzero"`
}

// UnmarshalJSONFrom reads a part source, keeping the fields its kind defines
// (only a file source names a provider).
func (s *PartSource) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	var w sourceWire
	if err := json.UnmarshalDecode(d, &w); err != nil {
		return err
	}
	*s = PartSource{Type: w.Type, Value: w.Value}
	allowed, known := sourceFields[w.Type]
	if !known {
		allowed = anyFields
	}
	take(w.MimeType, FieldMimeType, allowed, &s.MimeType, &s.Empty)
	take(w.Provider, FieldProvider, allowed, &s.Provider, &s.Empty)
	return nil
}

// MarshalJSONTo writes the source with its present fields, empty or not.
func (s PartSource) MarshalJSONTo(e *jsontext.Encoder) error {
	return json.MarshalEncode(e, &sourceWire{
		Type: s.Type, Value: s.Value,
		MimeType: s.Empty.opt(FieldMimeType, s.MimeType),
		Provider: s.Empty.opt(FieldProvider, s.Provider),
	})
}
