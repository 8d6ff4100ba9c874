package claude

import "encoding/json"

// Line is one line of a session file: the envelope every chained line
// carries and the members of each line type that the translation reads.
// Members it does not read are left in the raw line.
type Line struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	UUID    string `json:"uuid"`
	// ParentUUID links the line into the session's tree; a rewind gives a
	// parent a second child.
	ParentUUID        string   `json:"parentUuid"`
	LogicalParentUUID string   `json:"logicalParentUuid"`
	SessionID         string   `json:"sessionId"`
	Timestamp         string   `json:"timestamp"`
	IsSidechain       bool     `json:"isSidechain"`
	IsMeta            bool     `json:"isMeta"`
	IsCompactSummary  bool     `json:"isCompactSummary"`
	IsAPIErrorMessage bool     `json:"isApiErrorMessage"`
	Message           *Message `json:"message"`
	// ToolUseResult is the tool's own output beside a tool_result: Bash's
	// stdout and stderr, an edit's structuredPatch, a file read.
	ToolUseResult json.RawMessage `json:"toolUseResult"`
	// Content is a system line's text.
	Content         json.RawMessage `json:"content"`
	Level           string          `json:"level"`
	Error           json.RawMessage `json:"error"`
	APIErrorStatus  int             `json:"apiErrorStatus"`
	RetryAttempt    int             `json:"retryAttempt"`
	MaxRetries      int             `json:"maxRetries"`
	CompactMetadata json.RawMessage `json:"compactMetadata"`
	Summary         string          `json:"summary"`
	CustomTitle     string          `json:"customTitle"`
	AITitle         string          `json:"aiTitle"`
}

// Message is the Anthropic API message a user or assistant line holds.
type Message struct {
	ID    string `json:"id"`
	Role  string `json:"role"`
	Model string `json:"model"`
	// Content is a string (a typed prompt) or a list of Blocks.
	Content    json.RawMessage `json:"content"`
	StopReason string          `json:"stop_reason"`
}

// Block is one content block: text, thinking, tool_use, tool_result or image.
type Block struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	// ID, Name and Input are a tool_use's.
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// ToolUseID, ResultContent and IsError are a tool_result's; its
	// content is a string or a list of blocks (text, image).
	ToolUseID     string          `json:"tool_use_id"`
	ResultContent json.RawMessage `json:"content"`
	IsError       bool            `json:"is_error"`
	Source        *ImageSource    `json:"source"`
}

// ImageSource is an image block's picture.
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url"`
}

// Hunk is one hunk of a structuredPatch, as the diff package Claude Code
// uses writes it: lines start with ' ', '-' or '+'.
type Hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// ToolOutput is a toolUseResult object: the members of the builtin tools'
// results that the translation shows.
type ToolOutput struct {
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	Interrupted     bool   `json:"interrupted"`
	Type            string `json:"type"`
	FilePath        string `json:"filePath"`
	Content         string `json:"content"`
	StructuredPatch []Hunk `json:"structuredPatch"`
	File            *struct {
		FilePath string `json:"filePath"`
		Content  string `json:"content"`
		Base64   string `json:"base64"`
		Type     string `json:"type"`
	} `json:"file"`
	AgentID string `json:"agentId"`
}
