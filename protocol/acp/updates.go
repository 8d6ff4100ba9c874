package acp

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The session/update kinds of ACP v1 (the `sessionUpdate` discriminator).
const (
	UpdateUserMessageChunk        = "user_message_chunk"
	UpdateAgentMessageChunk       = "agent_message_chunk"
	UpdateAgentThoughtChunk       = "agent_thought_chunk"
	UpdateToolCall                = "tool_call"
	UpdateToolCallUpdate          = "tool_call_update"
	UpdatePlan                    = "plan"
	UpdateAvailableCommandsUpdate = "available_commands_update"
	UpdateCurrentModeUpdate       = "current_mode_update"
	UpdateConfigOptionUpdate      = "config_option_update"
	UpdateSessionInfoUpdate       = "session_info_update"
	UpdateUsageUpdate             = "usage_update"
)

// Update is any decoded session/update notification.
type Update interface {
	EventType() string
	// Session returns the notification's sessionId.
	Session() string
}

// UpdateBase is what every session update carries: the session it is for
// and the update's own _meta.
type UpdateBase struct {
	SessionID string
	Meta      jsontext.Value
}

// Session returns the update's sessionId.
func (u *UpdateBase) Session() string { return u.SessionID }

// Chunk is a piece of a message: a content block, and the id of the
// message it belongs to ("" when the agent sent none).
type Chunk struct {
	UpdateBase
	Content   ContentBlock
	MessageID string
}

// UserMessageChunk is a piece of a user message (sent when a session is
// loaded, and by some agents to echo the prompt).
type UserMessageChunk struct{ Chunk }

// EventType returns "user_message_chunk".
func (*UserMessageChunk) EventType() string { return UpdateUserMessageChunk }

// AgentMessageChunk is a piece of the agent's reply.
type AgentMessageChunk struct{ Chunk }

// EventType returns "agent_message_chunk".
func (*AgentMessageChunk) EventType() string { return UpdateAgentMessageChunk }

// AgentThoughtChunk is a piece of the agent's reasoning.
type AgentThoughtChunk struct{ Chunk }

// EventType returns "agent_thought_chunk".
func (*AgentThoughtChunk) EventType() string { return UpdateAgentThoughtChunk }

// ToolCall announces a tool call. Kind defaults to other and Status to
// pending when the agent leaves them out (ToolCallFields keeps them nil).
type ToolCall struct {
	UpdateBase
	ToolCallFields
}

// EventType returns "tool_call".
func (*ToolCall) EventType() string { return UpdateToolCall }

// ToolCallUpdate changes some fields of a tool call (which may never have
// been announced).
type ToolCallUpdate struct {
	UpdateBase
	ToolCallFields
}

// EventType returns "tool_call_update".
func (*ToolCallUpdate) EventType() string { return UpdateToolCallUpdate }

// Plan is the agent's whole plan; it replaces the one before.
type Plan struct {
	UpdateBase
	Entries []PlanEntry
}

// EventType returns "plan".
func (*Plan) EventType() string { return UpdatePlan }

// AvailableCommandsUpdate is the whole list of slash commands the agent offers.
type AvailableCommandsUpdate struct {
	UpdateBase
	Commands []Command
}

// EventType returns "available_commands_update".
func (*AvailableCommandsUpdate) EventType() string { return UpdateAvailableCommandsUpdate }

// CurrentModeUpdate says the session is now in mode ModeID.
type CurrentModeUpdate struct {
	UpdateBase
	ModeID string
}

// EventType returns "current_mode_update".
func (*CurrentModeUpdate) EventType() string { return UpdateCurrentModeUpdate }

// ConfigOptionUpdate is the whole list of the session's configuration options.
type ConfigOptionUpdate struct {
	UpdateBase
	Options []ConfigOption
}

// EventType returns "config_option_update".
func (*ConfigOptionUpdate) EventType() string { return UpdateConfigOptionUpdate }

// SessionInfoUpdate changes the session's title or its last-update time.
// TitleSet with an empty Title is a title cleared (sent as null).
type SessionInfoUpdate struct {
	UpdateBase
	Title    string
	TitleSet bool
	// UpdatedAt is the agent's ISO 8601 time; zero when not sent or not readable.
	UpdatedAt time.Time
}

// EventType returns "session_info_update".
func (*SessionInfoUpdate) EventType() string { return UpdateSessionInfoUpdate }

// UsageUpdate is the context window in use: Used of Size tokens, and the
// session's cost so far when the agent knows it.
type UsageUpdate struct {
	UpdateBase
	Used, Size int64
	Cost       *Cost
}

// EventType returns "usage_update".
func (*UsageUpdate) EventType() string { return UpdateUsageUpdate }

// Cost is an amount of money in a currency (ISO 4217, e.g. "USD").
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// UnknownUpdate is a session update of a kind ACP v1 does not define (or a
// newer one this package does not read), kept as its raw JSON.
type UnknownUpdate struct {
	UpdateBase
	Kind string
	Raw  jsontext.Value
}

// EventType returns the update's sessionUpdate string.
func (u *UnknownUpdate) EventType() string { return u.Kind }
