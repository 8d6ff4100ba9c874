package gemini

import "encoding/json"

// The types below are the parts of Gemini CLI's session records this
// package reads (gemini-cli, packages/core/src/services/
// chatRecordingTypes.ts). Members it does not use are not declared.

// Metadata is the first record of a session file, and what a $set changes.
type Metadata struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
	// Summary is a one-line summary of the session Gemini CLI made.
	Summary string `json:"summary"`
	// Kind is "main" or "subagent" (absent in older files: main).
	Kind string `json:"kind"`
	// Messages is a $set checkpoint: the whole history, written again.
	Messages []json.RawMessage `json:"messages"`
}

// Message is a message record: what the user, the model or the CLI itself
// said. Type is "user", "gemini", "info", "error" or "warning".
type Message struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	// Content is a string, a part, or a list of parts and strings (the
	// Gemini API's PartListUnion). DisplayContent is what the user typed
	// when it differs from what the model got.
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      []ToolCall      `json:"toolCalls"`
	Thoughts       []Thought       `json:"thoughts"`
	Tokens         *Tokens         `json:"tokens"`
	Model          string          `json:"model"`
}

// ToolCall is a tool call of a gemini message. Status is the scheduler's:
// validating, scheduled, awaiting_approval, executing, then success, error
// or cancelled.
type ToolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result json.RawMessage `json:"result"`
	Status string          `json:"status"`
	// Timestamp is when Gemini CLI recorded the call (done, as it records
	// calls).
	Timestamp string `json:"timestamp"`
	// AgentID is the subagent a call ran, when it ran one: its session
	// id, which names its file (chats/<session id>/<agent id>.jsonl).
	AgentID string `json:"agentId"`
	// Description is what the call does, as the CLI showed it.
	Description string `json:"description"`
	// ResultDisplay is what the user was shown: a string, or an object
	// (a FileDiff's fileDiff is an edit's unified diff).
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// Thought is a summary of the model's thinking.
type Thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// Tokens counts the tokens of one response of the model.
type Tokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
	Total    int64 `json:"total"`
}

// Part is a part of a message's content, or of a tool call's result.
type Part struct {
	Text             *string           `json:"text"`
	Thought          bool              `json:"thought"`
	FunctionResponse *FunctionResponse `json:"functionResponse"`
	FunctionCall     json.RawMessage   `json:"functionCall"`
}

// FunctionResponse is a tool's answer as the model gets it.
type FunctionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}
