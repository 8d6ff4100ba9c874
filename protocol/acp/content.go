package acp

import (
	"github.com/go-json-experiment/json/jsontext"
)

// The ContentBlock types of ACP v1.
const (
	BlockText         = "text"
	BlockImage        = "image"
	BlockAudio        = "audio"
	BlockResourceLink = "resource_link"
	BlockResource     = "resource"
)

// ContentBlock is a piece of a message, a prompt or a tool call's output:
// text, an image or audio (base64 Data), a link to a resource, or an
// embedded resource. Fields that a block's Type does not use stay empty.
type ContentBlock struct {
	Type string `json:"type"`
	// Text is a text block's text (Markdown).
	Text string `json:"text,omitempty"`
	// Data is an image's or audio's bytes in base64; MimeType says what they are.
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	// URI is where an image or a linked resource is.
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        int64  `json:"size,omitempty"`
	// Resource is an embedded resource's contents.
	Resource    *EmbeddedResource `json:"resource,omitempty"`
	Annotations jsontext.Value    `json:"annotations,omitzero"`
	Meta        jsontext.Value    `json:"_meta,omitzero"`
}

// EmbeddedResource is the contents of a resource block: text or a base64 blob.
type EmbeddedResource struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// The ToolCallContent types.
const (
	ToolContentContent  = "content"
	ToolContentDiff     = "diff"
	ToolContentTerminal = "terminal"
)

// ToolCallContent is one entry of a tool call's content: a content block
// (Type "content"), a file diff ("diff": Path, OldText nil for a new file,
// NewText) or a terminal's output ("terminal": TerminalID). An entry of
// another type keeps its JSON in Raw.
type ToolCallContent struct {
	Type       string         `json:"type"`
	Content    *ContentBlock  `json:"content,omitempty"`
	Path       string         `json:"path,omitempty"`
	OldText    *string        `json:"oldText,omitempty"`
	NewText    string         `json:"newText,omitempty"`
	TerminalID string         `json:"terminalId,omitempty"`
	Raw        jsontext.Value `json:"-"`
}

// Location is a file a tool call acts on, and the line (1-based, 0 for none).
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// The ToolKind values; a tool call without one is KindOther.
const (
	KindRead       = "read"
	KindEdit       = "edit"
	KindDelete     = "delete"
	KindMove       = "move"
	KindSearch     = "search"
	KindExecute    = "execute"
	KindThink      = "think"
	KindFetch      = "fetch"
	KindSwitchMode = "switch_mode"
	KindOther      = "other"
)

// The ToolCallStatus values; a tool call without one is StatusPending.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// ToolCallFields are what a tool_call, a tool_call_update or a permission
// request's toolCall says about a tool call. A nil pointer, or a false
// ...Set flag, is a field that was not sent (or sent as null): an update
// changes only what it sends, and Content and Locations replace the whole
// collection.
type ToolCallFields struct {
	ToolCallID string
	Title      *string
	Kind       *string
	Status     *string
	// Name is the tool's own name (a newer, optional field).
	Name         *string
	Content      []ToolCallContent
	ContentSet   bool
	Locations    []Location
	LocationsSet bool
	// RawInput and RawOutput are the tool's input and output as the agent
	// gives them (any JSON; empty when not sent).
	RawInput  jsontext.Value
	RawOutput jsontext.Value
	// Meta is the update's _meta, and Terminal what it says about a
	// terminal in the Zed extension (zero when nothing).
	Meta     jsontext.Value
	Terminal TerminalMeta
	// ToolName is _meta.claudeCode.toolName when the agent sent it.
	ToolName string
}

// TerminalMeta is the Zed `_meta` terminal extension on a tool call update:
// terminal_info names the terminal, terminal_output carries a chunk of its
// output, terminal_exit how it ended. The terminal id defaults to the tool
// call's id, which is what the agents that send it use.
type TerminalMeta struct {
	// TerminalID is the terminal the members name ("" when none is present).
	TerminalID string
	// Info is set when terminal_info was present.
	Info bool
	// Output is terminal_output's data; HasOutput tells an empty chunk from none.
	Output    string
	HasOutput bool
	// Exit is set when terminal_exit was present; ExitCode is nil when it
	// carried no code (a signal ended the command).
	Exit     bool
	ExitCode *int
	Signal   string
}

// PlanEntry is one task of an agent's plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// Command is a slash command the agent offers; Hint says what input it takes.
type Command struct {
	Name        string
	Description string
	Hint        string
}

// ConfigOption is one of a session's configuration options; Value is its
// current value as JSON (a select option id or a boolean).
type ConfigOption struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Category    string         `json:"category,omitempty"`
	Type        string         `json:"type,omitempty"`
	Value       jsontext.Value `json:"currentValue,omitzero"`
}

// Mode is one of the modes a session can be in.
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// PermissionOption is one answer a permission request offers; Kind is
// allow_once, allow_always, reject_once or reject_always.
type PermissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}
