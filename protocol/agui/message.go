package agui

import (
	"cmp"
	"fmt"

	"github.com/agentwatch/agentwatch/internal/jsonwords"
	"github.com/go-json-experiment/json/jsontext"
)

// Role is a message's role, the discriminator of the Message union.
type Role string

// The six message roles of AG-UI 1.0 (plus developer/system, which share a shape).
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
	RoleTool      Role = "tool"
	RoleActivity  Role = "activity"
	RoleReasoning Role = "reasoning"
)

// Message is one entry of a conversation in its wire shape. Which fields
// apply depends on Role; decoding keeps only those (wire.go), and the JSON
// form writes exactly the ones that were present, empty or not, so a folded
// message compares equal to the reference client's.
type Message struct {
	ID             string
	Role           Role
	Content        Content
	Name           string
	ToolCalls      []ToolCall // nil when absent; empty when sent as []
	ToolCallID     string
	Error          string
	ActivityType   string
	EncryptedValue string
	Metadata       Metadata
	SubagentRunID  OptString
	// Empty holds the string fields above that are present with the value "".
	Empty Fields
}

// ToolCall is a call an assistant message makes. Arguments stay the raw
// string the producer streamed, valid JSON or not.
type ToolCall struct {
	ID             string
	Type           string
	Function       FunctionCall
	EncryptedValue string
	Metadata       Metadata
	// Empty holds FieldEncryptedValue when it is present with the value "".
	Empty Fields
}

// FunctionCall names the tool and carries its argument text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Content is a message body: a string, or (user and tool messages) a list of
// parts, or (activity messages) an object, or absent (an assistant message
// that only calls tools).
type Content struct {
	Text    string
	Parts   []ContentPart
	IsParts bool
	// Object holds an activity message's content object.
	Object  jsontext.Value
	Present bool
}

// TextContent returns a present string content.
func TextContent(s string) Content { return Content{Text: s, Present: true} }

// IsZero reports an absent content, left out of the JSON form.
func (c Content) IsZero() bool { return !c.Present }

// String returns the text of the content: the string, or the text parts joined.
func (c Content) String() string {
	if !c.IsParts {
		return c.Text
	}
	s := ""
	for _, p := range c.Parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s
}

// UnmarshalJSONFrom reads a string, an array of parts, or null (absent).
func (c *Content) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	switch d.PeekKind() {
	case 'n':
		_, err := d.ReadToken()
		*c = Content{}
		return err
	case '"':
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		// A big text is unquoted a piece at a time (jsonString), as the
		// general decoder does not; any other goes the general way.
		text, end, ok := jsonString(v, 0)
		if !ok || end != len(v) {
			if err := unmarshal(v, &text); err != nil {
				return err
			}
		}
		*c = Content{Text: text, Present: true}
		return nil
	case '[':
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		if !v.IsValid() {
			// As for an object: the parts' raw members (metadata) must not
			// keep bytes a strict encoder refuses.
			if clean, ok := Normalize(v.Clone()); ok {
				v = clean
			}
		}
		var parts []ContentPart
		if err := unmarshal(v, &parts); err != nil {
			return err
		}
		if parts == nil {
			parts = []ContentPart{}
		}
		*c = Content{Parts: parts, IsParts: true, Present: true}
		return nil
	case '{':
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		obj := v.Clone()
		if !obj.IsValid() {
			// A lenient decoder let through bytes a strict encoder refuses.
			if clean, ok := Normalize(obj); ok {
				obj = clean
			}
		}
		*c = Content{Object: obj, Present: true}
		return nil
	}
	return fmt.Errorf("content: want a string or an array of parts, got %s", cmp.Or(jsonwords.Kind(d.PeekKind()), "nothing"))
}

// MarshalJSONTo writes the string or the parts.
func (c Content) MarshalJSONTo(e *jsontext.Encoder) error {
	if c.Object != nil {
		return e.WriteValue(c.Object)
	}
	if c.IsParts {
		b, err := marshal(c.Parts)
		if err != nil {
			return err
		}
		return e.WriteValue(b)
	}
	return e.WriteToken(jsontext.String(c.Text))
}

// ContentPart is one part of a multimodal body: text, or an image, audio,
// video or document whose bytes come from Source.
type ContentPart struct {
	Type     string
	Text     string
	ID       string
	Source   *PartSource
	Metadata jsontext.Value
	// Empty holds the string fields above that are present with the value "".
	Empty Fields
}

// PartSource says where a media part's bytes are: inline base64 ("data"),
// at a URL ("url"), or a provider file handle ("file").
type PartSource struct {
	Type     string
	Value    string
	MimeType string
	Provider string
	// Empty holds the string fields above that are present with the value "".
	Empty Fields
}

// RunAgentInput is the body that starts a run; RUN_STARTED echoes it as `input`.
type RunAgentInput struct {
	ThreadID       string         `json:"threadId"`
	RunID          string         `json:"runId"`
	ParentRunID    string         `json:"parentRunId,omitempty"`
	ProtocolVer    string         `json:"protocolVersion,omitempty"`
	State          jsontext.Value `json:"state,omitzero"`
	Messages       []Message      `json:"messages"`
	Tools          []Tool         `json:"tools,omitempty"`
	Context        []ContextItem  `json:"context,omitempty"`
	ForwardedProps jsontext.Value `json:"forwardedProps,omitzero"`
	Resume         jsontext.Value `json:"resume,omitzero"`
}

// Tool describes a tool the client offers the agent.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  jsontext.Value `json:"parameters,omitzero"`
	Metadata    Metadata       `json:"metadata,omitzero"`
}

// ContextItem is a piece of context the client hands the agent.
type ContextItem struct {
	Description string `json:"description"`
	Value       string `json:"value"`
}

// Outcome is how a run (or subagent) ended: success, interrupt, cancelled,
// or (subagents) suspended. Absent means success.
type Outcome struct {
	Type               string      `json:"type"`
	PendingToolCallIDs []string    `json:"pendingToolCallIds,omitempty"`
	Interrupts         []Interrupt `json:"interrupts,omitempty"`
	InterruptIDs       []string    `json:"interruptIds,omitempty"`
}

// Interrupt is a question a run leaves for the client to answer.
type Interrupt struct {
	ID             string         `json:"id"`
	Reason         string         `json:"reason"`
	Message        string         `json:"message,omitempty"`
	ToolCallID     string         `json:"toolCallId,omitempty"`
	ResponseSchema jsontext.Value `json:"responseSchema,omitzero"`
	ExpiresAt      string         `json:"expiresAt,omitempty"`
	Metadata       Metadata       `json:"metadata,omitzero"`
	SubagentRunID  OptString      `json:"subagentRunId,omitzero"`
}

// TokenUsage counts the tokens a run used with one provider and model.
type TokenUsage struct {
	Provider              string `json:"provider,omitempty"`
	Model                 string `json:"model,omitempty"`
	InputTokens           *int64 `json:"inputTokens,omitempty"`
	OutputTokens          *int64 `json:"outputTokens,omitempty"`
	TotalTokens           *int64 `json:"totalTokens,omitempty"`
	ReasoningTokens       *int64 `json:"reasoningTokens,omitempty"`
	CachedInputTokens     *int64 `json:"cachedInputTokens,omitempty"`
	CacheWriteInputTokens *int64 `json:"cacheWriteInputTokens,omitempty"`
}
