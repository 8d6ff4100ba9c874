package copilot

import "encoding/json"

// The types below are the parts of Copilot CLI's session events this
// package reads (github/copilot-sdk, nodejs/src/generated/session-events.ts,
// generated from session-events.schema.json). Fields it does not use are
// not declared; event types it does not know are skipped.

// Event is one line of a session file: the envelope every event has.
type Event struct {
	// Type is what the data is: session.start, user.message,
	// tool.execution_start, … or a type of a newer build.
	Type string `json:"type"`
	// ID is the event's own id (a UUID).
	ID string `json:"id"`
	// Timestamp is when Copilot made the event (ISO 8601).
	Timestamp string `json:"timestamp"`
	// AgentID names the subagent whose event it is; absent for the main
	// agent's events and the session's.
	AgentID string `json:"agentId"`
	// Ephemeral marks an event Copilot streams but does not keep on disk.
	Ephemeral bool            `json:"ephemeral"`
	Data      json.RawMessage `json:"data"`
}

// StartData is session.start's data: the session and where it runs.
type StartData struct {
	SessionID       string   `json:"sessionId"`
	CopilotVersion  string   `json:"copilotVersion"`
	Producer        string   `json:"producer"`
	SelectedModel   string   `json:"selectedModel"`
	ReasoningEffort string   `json:"reasoningEffort"`
	Context         *Context `json:"context"`
}

// Context is the folder and git repository a session works in, as
// session.start, session.resume and session.context_changed say.
type Context struct {
	Cwd        string `json:"cwd"`
	GitRoot    string `json:"gitRoot"`
	Branch     string `json:"branch"`
	HeadCommit string `json:"headCommit"`
	Repository string `json:"repository"`
}

// ResumeData is session.resume's data: the session taken up again.
type ResumeData struct {
	SelectedModel   string   `json:"selectedModel"`
	ReasoningEffort string   `json:"reasoningEffort"`
	Context         *Context `json:"context"`
}

// ModelChangeData is session.model_change's data.
type ModelChangeData struct {
	NewModel string `json:"newModel"`
}

// UserMessageData is user.message's data: what the user wrote and attached.
type UserMessageData struct {
	Content     string       `json:"content"`
	Attachments []Attachment `json:"attachments"`
	// Source is where a message came from when the user did not type it
	// ("skill-…" for a skill's hidden text).
	Source string `json:"source"`
}

// Attachment is a file, folder, selection or GitHub reference attached to
// a user's message; only the members that name it are read.
type Attachment struct {
	Type        string `json:"type"`
	DisplayName string `json:"displayName"`
	Path        string `json:"path"`
	FilePath    string `json:"filePath"`
	URL         string `json:"url"`
}

// TurnData is assistant.turn_start's and assistant.turn_end's data.
type TurnData struct {
	TurnID string `json:"turnId"`
	Model  string `json:"model"`
}

// MessageData is assistant.message's data: the agent's text, its reasoning
// and the tools it asks for.
type MessageData struct {
	MessageID     string        `json:"messageId"`
	Content       string        `json:"content"`
	ReasoningText string        `json:"reasoningText"`
	ToolRequests  []ToolRequest `json:"toolRequests"`
	// ParentToolCallID is the call that spawned the subagent whose message
	// it is (older builds; newer ones set the envelope's agentId).
	ParentToolCallID string `json:"parentToolCallId"`
}

// ToolRequest is a tool call an assistant message asks for.
type ToolRequest struct {
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
}

// ReasoningData is assistant.reasoning's data.
type ReasoningData struct {
	ReasoningID string `json:"reasoningId"`
	Content     string `json:"content"`
}

// ToolStartData is tool.execution_start's data.
type ToolStartData struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	// Arguments is the call's arguments, any JSON value.
	Arguments        json.RawMessage `json:"arguments"`
	MCPServerName    string          `json:"mcpServerName"`
	MCPToolName      string          `json:"mcpToolName"`
	ShellToolInfo    *ShellToolInfo  `json:"shellToolInfo"`
	ParentToolCallID string          `json:"parentToolCallId"`
}

// ShellToolInfo is what Copilot says of a shell tool's command.
type ShellToolInfo struct {
	// DisplayCommand is the command without a leading cd into the folder.
	DisplayCommand string `json:"displayCommand"`
}

// ToolCompleteData is tool.execution_complete's data.
type ToolCompleteData struct {
	ToolCallID       string      `json:"toolCallId"`
	Success          bool        `json:"success"`
	Result           *ToolResult `json:"result"`
	Error            *ToolError  `json:"error"`
	ParentToolCallID string      `json:"parentToolCallId"`
}

// ToolResult is a completed call's result: the text the model got, the
// fuller text for display (a diff for an edit), and content blocks.
type ToolResult struct {
	Content         string         `json:"content"`
	DetailedContent string         `json:"detailedContent"`
	Contents        []ContentBlock `json:"contents"`
}

// ContentBlock is one block of a result's contents; only the members of
// text, terminal and shell_exit blocks are read.
type ContentBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ExitCode *int   `json:"exitCode"`
}

// ToolError is why a call failed.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// SubagentData is subagent.started's, subagent.completed's and
// subagent.failed's data.
type SubagentData struct {
	// ToolCallID is the call that spawned the subagent.
	ToolCallID       string `json:"toolCallId"`
	AgentName        string `json:"agentName"`
	AgentDisplayName string `json:"agentDisplayName"`
	AgentDescription string `json:"agentDescription"`
	Model            string `json:"model"`
	Error            string `json:"error"`
}

// CompactionData is session.compaction_start's and
// session.compaction_complete's data.
type CompactionData struct {
	Trigger              string `json:"trigger"`
	Success              *bool  `json:"success"`
	Error                string `json:"error"`
	SummaryContent       string `json:"summaryContent"`
	PreCompactionTokens  *int64 `json:"preCompactionTokens"`
	PostCompactionTokens *int64 `json:"postCompactionTokens"`
	MessagesRemoved      *int64 `json:"messagesRemoved"`
}

// ShutdownData is session.shutdown's data.
type ShutdownData struct {
	ShutdownType string `json:"shutdownType"`
	ErrorReason  string `json:"errorReason"`
	CurrentModel string `json:"currentModel"`
}

// ErrorData is session.error's data.
type ErrorData struct {
	ErrorType  string `json:"errorType"`
	ErrorCode  string `json:"errorCode"`
	Message    string `json:"message"`
	StatusCode int    `json:"statusCode"`
}

// AbortData is abort's data: why the user or Copilot stopped the turn.
type AbortData struct {
	Reason string `json:"reason"`
}
