package model

import "time"

// Session is what an ACP agent has said about the session a fold shows:
// its id and title, its mode, the slash commands and options it offers, and
// how much of the context window (and money) it has used. Fields the agent
// never sent stay zero.
type Session struct {
	ID    string `json:"id,omitempty"`
	Title string `json:"title,omitempty"`
	// Mode is the current mode's id; Modes are the modes it can switch to.
	Mode  string `json:"mode,omitempty"`
	Modes []Mode `json:"modes,omitempty"`
	// Commands are the slash commands the agent offers.
	Commands []Command `json:"commands,omitempty"`
	// Options are the session's configuration options (model, thought level…).
	Options []ConfigOption `json:"options,omitempty"`
	// Used of Size tokens of the context window are in use.
	Used int64 `json:"used,omitempty"`
	Size int64 `json:"size,omitempty"`
	// Cost is the session's cost so far as the agent states it, e.g. "0.42 USD".
	Cost string `json:"cost,omitempty"`
	// UpdatedAt is when the agent says the session last changed.
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
}

// Mode is a mode a session can be in (e.g. "plan", "code").
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// Command is a slash command an agent offers; Hint says what input it takes.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Hint        string `json:"hint,omitempty"`
}

// ConfigOption is one of a session's configuration options and its current
// value (a choice's id, or "true"/"false").
type ConfigOption struct {
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`
	Category string `json:"category,omitempty"`
	Value    string `json:"value,omitempty"`
}

// PlanEntry is one task of an agent's plan, as a plan item's Data holds it:
// Priority is high, medium or low; Status pending, in_progress or completed.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status"`
}
