package acp

// The results of the requests whose answers the fold reads, for
// Response.Decode.

// NewSessionResult answers session/new (and, without SessionID, session/load).
type NewSessionResult struct {
	SessionID     string         `json:"sessionId"`
	Modes         *ModeState     `json:"modes"`
	ConfigOptions []ConfigOption `json:"configOptions"`
}

// ModeState is the session's current mode and the modes it can switch to.
type ModeState struct {
	CurrentModeID  string `json:"currentModeId"`
	AvailableModes []Mode `json:"availableModes"`
}

// PromptResult answers session/prompt: why the turn ended.
type PromptResult struct {
	StopReason string `json:"stopReason"`
}

// The stop reasons of a prompt turn.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// PermissionResult answers session/request_permission: Outcome is
// "selected" (with OptionID) or "cancelled".
type PermissionResult struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

// CreateTerminalResult answers terminal/create.
type CreateTerminalResult struct {
	TerminalID string `json:"terminalId"`
}

// ExitStatus is how a terminal's command ended: its exit code, or the
// signal that killed it.
type ExitStatus struct {
	ExitCode *int   `json:"exitCode"`
	Signal   string `json:"signal"`
}

// TerminalOutputResult answers terminal/output: all output so far (cut
// from the start when Truncated) and the exit status once it exited.
type TerminalOutputResult struct {
	Output     string      `json:"output"`
	Truncated  bool        `json:"truncated"`
	ExitStatus *ExitStatus `json:"exitStatus"`
}
