package agui

import (
	"github.com/go-json-experiment/json/jsontext"
)

// The AG-UI 1.0 event types, and the five legacy THINKING_* types still
// found in older logs.
const (
	TypeRunStarted              = "RUN_STARTED"
	TypeRunFinished             = "RUN_FINISHED"
	TypeRunError                = "RUN_ERROR"
	TypeStepStarted             = "STEP_STARTED"
	TypeStepFinished            = "STEP_FINISHED"
	TypeTextMessageStart        = "TEXT_MESSAGE_START"
	TypeTextMessageContent      = "TEXT_MESSAGE_CONTENT"
	TypeTextMessageEnd          = "TEXT_MESSAGE_END"
	TypeTextMessageChunk        = "TEXT_MESSAGE_CHUNK"
	TypeToolCallStart           = "TOOL_CALL_START"
	TypeToolCallArgs            = "TOOL_CALL_ARGS"
	TypeToolCallEnd             = "TOOL_CALL_END"
	TypeToolCallChunk           = "TOOL_CALL_CHUNK"
	TypeToolCallResult          = "TOOL_CALL_RESULT"
	TypeStateSnapshot           = "STATE_SNAPSHOT"
	TypeStateDelta              = "STATE_DELTA"
	TypeMessagesSnapshot        = "MESSAGES_SNAPSHOT"
	TypeActivitySnapshot        = "ACTIVITY_SNAPSHOT"
	TypeActivityDelta           = "ACTIVITY_DELTA"
	TypeRaw                     = "RAW"
	TypeCustom                  = "CUSTOM"
	TypeReasoningStart          = "REASONING_START"
	TypeReasoningMessageStart   = "REASONING_MESSAGE_START"
	TypeReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	TypeReasoningMessageEnd     = "REASONING_MESSAGE_END"
	TypeReasoningMessageChunk   = "REASONING_MESSAGE_CHUNK"
	TypeReasoningEnd            = "REASONING_END"
	TypeReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE"
	TypeSubagentStarted         = "SUBAGENT_STARTED"
	TypeSubagentFinished        = "SUBAGENT_FINISHED"
	TypeSubagentError           = "SUBAGENT_ERROR"

	TypeThinkingStart              = "THINKING_START"
	TypeThinkingEnd                = "THINKING_END"
	TypeThinkingTextMessageStart   = "THINKING_TEXT_MESSAGE_START"
	TypeThinkingTextMessageContent = "THINKING_TEXT_MESSAGE_CONTENT"
	TypeThinkingTextMessageEnd     = "THINKING_TEXT_MESSAGE_END"
)

// Base holds the fields every event may carry, and the members no AG-UI 1.0
// definition names (kept, never dropped).
type Base struct {
	Type          string         `json:"type"`
	Timestamp     Timestamp      `json:"timestamp,omitzero"`
	RawEvent      jsontext.Value `json:"rawEvent,omitzero"`
	Metadata      Metadata       `json:"metadata,omitzero"`
	SubagentRunID OptString      `json:"subagentRunId,omitzero"`
	Unknown       jsontext.Value `json:",embed"`
}

// EventType returns the event's `type`.
func (b *Base) EventType() string { return b.Type }

// Common gives access to the shared fields of any decoded event.
func (b *Base) Common() *Base { return b }

// Event is any decoded AG-UI event.
type Event interface {
	EventType() string
	Common() *Base
}

// RunStarted opens a run. Input echoes the RunAgentInput the run was started with.
type RunStarted struct {
	Base
	ThreadID        string         `json:"threadId"`
	RunID           string         `json:"runId"`
	ParentRunID     string         `json:"parentRunId,omitempty"`
	ProtocolVersion string         `json:"protocolVersion,omitempty"`
	Input           *RunAgentInput `json:"input,omitempty"`
}

// RunFinished closes a run; Outcome absent means success.
type RunFinished struct {
	Base
	ThreadID string         `json:"threadId"`
	RunID    string         `json:"runId"`
	Result   jsontext.Value `json:"result,omitzero"`
	Outcome  *Outcome       `json:"outcome,omitempty"`
	Usage    []TokenUsage   `json:"usage,omitempty"`
}

// RunError ends a run with an error.
type RunError struct {
	Base
	Message string       `json:"message"`
	Code    string       `json:"code,omitempty"`
	Usage   []TokenUsage `json:"usage,omitempty"`
}

// StepStarted opens a named step of the agent's own (not a tool call).
type StepStarted struct {
	Base
	StepName string `json:"stepName"`
}

// StepFinished closes a named step.
type StepFinished struct {
	Base
	StepName string `json:"stepName"`
}

// TextMessageStart opens a text message; an empty Role means assistant.
// Name is kept as sent: the message it creates has a name, even "", exactly
// when the event had one.
type TextMessageStart struct {
	Base
	MessageID string    `json:"messageId"`
	Role      Role      `json:"role,omitempty"`
	Name      OptString `json:"name,omitzero"`
}

// TextMessageContent appends Delta to a text message.
type TextMessageContent struct {
	Base
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// TextMessageEnd closes a text message.
type TextMessageEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// TextMessageChunk is shorthand for start + content + end; the fold expands it.
type TextMessageChunk struct {
	Base
	MessageID OptString `json:"messageId,omitzero"`
	Role      OptString `json:"role,omitzero"`
	Delta     OptString `json:"delta,omitzero"`
	Name      OptString `json:"name,omitzero"`
}

// ToolCallStart opens a tool call, attached to ParentMessageID when given.
type ToolCallStart struct {
	Base
	ToolCallID      string `json:"toolCallId"`
	ToolCallName    string `json:"toolCallName"`
	ParentMessageID string `json:"parentMessageId,omitempty"`
}

// ToolCallArgs appends Delta to a tool call's argument text.
type ToolCallArgs struct {
	Base
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

// ToolCallEnd closes a tool call's arguments.
type ToolCallEnd struct {
	Base
	ToolCallID string `json:"toolCallId"`
}

// ToolCallChunk is shorthand for a tool call's start + args + end.
type ToolCallChunk struct {
	Base
	ToolCallID      OptString `json:"toolCallId,omitzero"`
	ToolCallName    OptString `json:"toolCallName,omitzero"`
	ParentMessageID OptString `json:"parentMessageId,omitzero"`
	Delta           OptString `json:"delta,omitzero"`
}

// ToolCallResult carries what a tool returned, as a new tool message MessageID.
type ToolCallResult struct {
	Base
	MessageID  string  `json:"messageId"`
	ToolCallID string  `json:"toolCallId"`
	Content    Content `json:"content"`
	Role       Role    `json:"role,omitempty"`
}

// StateSnapshot replaces the agent state with any JSON value.
type StateSnapshot struct {
	Base
	Snapshot jsontext.Value `json:"snapshot"`
}

// StateDelta changes the agent state by an RFC 6902 JSON Patch.
type StateDelta struct {
	Base
	Delta jsontext.Value `json:"delta"`
}

// MessagesSnapshot replaces the conversation by the producer's copy.
type MessagesSnapshot struct {
	Base
	Messages []Message `json:"messages"`
}

// ActivitySnapshot creates or replaces an activity message; Replace absent means true.
type ActivitySnapshot struct {
	Base
	MessageID    string         `json:"messageId"`
	ActivityType string         `json:"activityType"`
	Content      jsontext.Value `json:"content"`
	Replace      *bool          `json:"replace,omitempty"`
}

// ActivityDelta patches an activity message's content.
type ActivityDelta struct {
	Base
	MessageID    string         `json:"messageId"`
	ActivityType string         `json:"activityType"`
	Patch        jsontext.Value `json:"patch"`
}

// Raw passes through a provider-native event.
type Raw struct {
	Base
	Event  jsontext.Value `json:"event"`
	Source string         `json:"source,omitempty"`
}

// Custom is an application-defined event.
type Custom struct {
	Base
	Name  string         `json:"name"`
	Value jsontext.Value `json:"value"`
}

// ReasoningStart opens a reasoning span.
type ReasoningStart struct {
	Base
	MessageID string `json:"messageId"`
}

// ReasoningMessageStart opens a reasoning message.
type ReasoningMessageStart struct {
	Base
	MessageID string `json:"messageId"`
	Role      Role   `json:"role"`
}

// ReasoningMessageContent appends Delta to a reasoning message.
type ReasoningMessageContent struct {
	Base
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// ReasoningMessageEnd closes a reasoning message.
type ReasoningMessageEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// ReasoningMessageChunk is shorthand for a reasoning message's start + content + end.
type ReasoningMessageChunk struct {
	Base
	MessageID OptString `json:"messageId,omitzero"`
	Delta     OptString `json:"delta,omitzero"`
}

// ReasoningEnd closes a reasoning span.
type ReasoningEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// ReasoningEncryptedValue attaches an opaque encrypted value to a tool call or message.
type ReasoningEncryptedValue struct {
	Base
	Subtype        string `json:"subtype"`
	EntityID       string `json:"entityId"`
	EncryptedValue string `json:"encryptedValue"`
}

// SubagentStarted opens a subagent run, identified by Base.SubagentRunID.
type SubagentStarted struct {
	Base
	Name                OptString `json:"name,omitzero"`
	Description         OptString `json:"description,omitzero"`
	ParentSubagentRunID OptString `json:"parentSubagentRunId,omitzero"`
	ParentToolCallID    OptString `json:"parentToolCallId,omitzero"`
	ParentMessageID     OptString `json:"parentMessageId,omitzero"`
}

// SubagentFinished closes a subagent run.
type SubagentFinished struct {
	Base
	Result  jsontext.Value `json:"result,omitzero"`
	Outcome jsontext.Value `json:"outcome,omitzero"`
}

// SubagentError ends a subagent run with an error.
type SubagentError struct {
	Base
	Message OptString `json:"message,omitzero"`
	Code    OptString `json:"code,omitzero"`
}

// ThinkingStart is the 0.x form of REASONING_START (no id; an optional title).
type ThinkingStart struct {
	Base
	Title string `json:"title,omitempty"`
}

// ThinkingEnd is the 0.x form of REASONING_END.
type ThinkingEnd struct {
	Base
}

// ThinkingTextMessageStart is the 0.x form of REASONING_MESSAGE_START.
type ThinkingTextMessageStart struct {
	Base
}

// ThinkingTextMessageContent is the 0.x form of REASONING_MESSAGE_CONTENT.
type ThinkingTextMessageContent struct {
	Base
	Delta string `json:"delta"`
}

// ThinkingTextMessageEnd is the 0.x form of REASONING_MESSAGE_END.
type ThinkingTextMessageEnd struct {
	Base
}

// Unknown is an event whose type AG-UI 1.0 does not define. Its raw JSON
// stays in the record; Base holds what could be read of the common fields.
type Unknown struct {
	Base
}

// Malformed is a known event type with a field of the wrong shape. The fold
// reports it as a diagnostic and does not apply it.
type Malformed struct {
	Base
	// Err says which field is wrong and how.
	Err error
}

// EventType returns the type as written.
func (m *Malformed) EventType() string { return m.Type }
