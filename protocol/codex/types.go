package codex

import "encoding/json"

// The types below are the parts of Codex's rollout format this package
// reads (openai/codex, codex-rs/protocol: RolloutLine and RolloutItem in
// protocol.rs, ResponseItem in models.rs). Fields it does not use are not
// declared; line and item types it does not know are skipped.

// Line is one line of a rollout.
type Line struct {
	// Timestamp is when Codex wrote the line (RFC 3339, milliseconds).
	Timestamp string `json:"timestamp"`
	// Type is what the payload is: session_meta, turn_context,
	// response_item, event_msg, compacted, or a type of a newer build.
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// SessionMeta is the first line of a rollout: the session and where it runs.
type SessionMeta struct {
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	Originator string `json:"originator"`
	CLIVersion string `json:"cli_version"`
	// Source is what started the session: "cli", "vscode", "exec", or an
	// object for a subagent.
	Source        json.RawMessage `json:"source"`
	ModelProvider string          `json:"model_provider"`
	Git           *GitInfo        `json:"git"`
}

// GitInfo is the repository a session runs in.
type GitInfo struct {
	CommitHash    string `json:"commit_hash"`
	Branch        string `json:"branch"`
	RepositoryURL string `json:"repository_url"`
}

// TurnContext is the settings a turn runs with, written at the turn's
// start and again before each request to the model.
type TurnContext struct {
	TurnID         string `json:"turn_id"`
	Cwd            string `json:"cwd"`
	ApprovalPolicy string `json:"approval_policy"`
	Model          string `json:"model"`
	Effort         string `json:"effort"`
}

// ResponseItem is an item of the conversation as the model sees it: a
// message, a reasoning summary, a tool call or a tool's output.
type ResponseItem struct {
	Type string `json:"type"`
	ID   string `json:"id"`

	// message
	Role    string        `json:"role"`
	Content []ContentItem `json:"content"`

	// reasoning
	Summary []ContentItem `json:"summary"`

	// function_call, custom_tool_call, local_shell_call and their outputs
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Input     string `json:"input"`
	CallID    string `json:"call_id"`
	// Output is a string, or a list of content items (text and images).
	Output json.RawMessage `json:"output"`
	Status string          `json:"status"`
	// Action is a local_shell_call's command or a web_search_call's query.
	Action json.RawMessage `json:"action"`
}

// ContentItem is a part of a message or of a reasoning summary.
type ContentItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// EventMsg is an event of the session Codex keeps in the rollout: a
// turn's start and end, token counts, a patch applied, a compaction.
type EventMsg struct {
	Type   string `json:"type"`
	TurnID string `json:"turn_id"`
	// Reason is why a turn was aborted ("interrupted", "replaced").
	Reason string `json:"reason"`
	// Info is a token_count's usage (null before the first answer).
	Info *TokenInfo `json:"info"`
	// CallID and Success are a patch_apply_end's.
	CallID  string `json:"call_id"`
	Success *bool  `json:"success"`
	Message string `json:"message"`
	// NewThreadID is a collab_agent_spawn_end's: the thread its call
	// spawned (null when none was).
	NewThreadID string `json:"new_thread_id"`
}

// TokenInfo is what a token_count says of the session's tokens.
type TokenInfo struct {
	Total *TokenUsage `json:"total_token_usage"`
}

// TokenUsage counts tokens.
type TokenUsage struct {
	Input           int64 `json:"input_tokens"`
	CachedInput     int64 `json:"cached_input_tokens"`
	Output          int64 `json:"output_tokens"`
	ReasoningOutput int64 `json:"reasoning_output_tokens"`
	Total           int64 `json:"total_tokens"`
}

// ShellAction is a local_shell_call's action: an argv.
type ShellAction struct {
	Command    []string `json:"command"`
	WorkingDir string   `json:"working_directory"`
}

// SearchAction is a web_search_call's action.
type SearchAction struct {
	Type    string   `json:"type"`
	Query   string   `json:"query"`
	Queries []string `json:"queries"`
	URL     string   `json:"url"`
}
