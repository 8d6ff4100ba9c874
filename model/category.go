package model

import "strings"

// Category is what a step does on the agent's computer. The words are ACP's
// ToolKind values; the category always comes from upstream (ACP kind, AG-UI
// metadata, or the user's mapping file), never from guessing at tool names.
type Category string

// The ten categories.
const (
	CategoryRead       Category = "read"
	CategoryEdit       Category = "edit"
	CategoryDelete     Category = "delete"
	CategoryMove       Category = "move"
	CategorySearch     Category = "search"
	CategoryExecute    Category = "execute"
	CategoryThink      Category = "think"
	CategoryFetch      Category = "fetch"
	CategorySwitchMode Category = "switch_mode"
	CategoryOther      Category = "other"
)

// Categories lists every category in display order.
var Categories = []Category{CategoryRead, CategoryEdit, CategoryDelete, CategoryMove, CategorySearch,
	CategoryExecute, CategoryThink, CategoryFetch, CategorySwitchMode, CategoryOther}

// ParseCategory returns the category named s, and false for anything else.
func ParseCategory(s string) (Category, bool) {
	for _, c := range Categories {
		if string(c) == s {
			return c, true
		}
	}
	return "", false
}

// verbs are the forms of a step label's verb: while the step runs, once it
// completed, when it failed and when it was cancelled.
var verbs = map[Category][4]string{
	CategoryRead:       {"Reading", "Read", "Read failed", "Read cancelled"},
	CategoryEdit:       {"Editing", "Edited", "Edit failed", "Edit cancelled"},
	CategoryDelete:     {"Deleting", "Deleted", "Delete failed", "Delete cancelled"},
	CategoryMove:       {"Moving", "Moved", "Move failed", "Move cancelled"},
	CategorySearch:     {"Searching", "Searched", "Search failed", "Search cancelled"},
	CategoryExecute:    {"Running command", "Ran command", "Command failed", "Command cancelled"},
	CategoryThink:      {"Thinking", "Thought", "Thinking failed", "Thinking cancelled"},
	CategoryFetch:      {"Fetching", "Fetched", "Fetch failed", "Fetch cancelled"},
	CategorySwitchMode: {"Switching mode", "Switched mode", "Mode switch failed", "Mode switch cancelled"},
}

// Verb returns the category's verb phrase for a step in status s: present
// tense while it runs, past tense once it completed, and saying so when it
// failed or was cancelled ("Delete failed"), so that a label never reads
// as a success that did not happen. It is "" for a category without one.
func (c Category) Verb(s Status) string {
	v, ok := verbs[c]
	if !ok {
		return ""
	}
	switch s {
	case StatusCompleted:
		return v[1]
	case StatusFailed:
		return v[2]
	case StatusCancelled:
		return v[3]
	case StatusInterrupted:
		return strings.TrimSuffix(v[3], "cancelled") + "interrupted"
	}
	return v[0]
}

// Status is the streaming state of an item or a step.
type Status string

// The statuses. Messages go open → completed; steps go pending (arguments
// streaming or awaiting a client result) → running → completed | failed | cancelled.
const (
	StatusOpen      Status = "open"
	StatusPending   Status = "pending"
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	// StatusInterrupted is never folded: a screen shows it for a step that
	// was still open when its agent exited, which nothing will finish.
	StatusInterrupted Status = "interrupted"
)

// Done reports whether the status is final.
func (s Status) Done() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled || s == StatusInterrupted
}
