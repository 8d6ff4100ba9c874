package model

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

// verbs are the present and past forms shown in a step label.
var verbs = map[Category][2]string{
	CategoryRead:       {"Reading", "Read"},
	CategoryEdit:       {"Editing", "Edited"},
	CategoryDelete:     {"Deleting", "Deleted"},
	CategoryMove:       {"Moving", "Moved"},
	CategorySearch:     {"Searching", "Searched"},
	CategoryExecute:    {"Running command", "Ran command"},
	CategoryThink:      {"Thinking", "Thought"},
	CategoryFetch:      {"Fetching", "Fetched"},
	CategorySwitchMode: {"Switching mode", "Switched mode"},
}

// Verb returns the category's verb phrase, present tense while the step
// runs and past tense once it is done.
func (c Category) Verb(done bool) string {
	v, ok := verbs[c]
	if !ok {
		return ""
	}
	if done {
		return v[1]
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
)

// Done reports whether the status is final.
func (s Status) Done() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled
}
