package model

// PermissionOption is one answer an agent offers to a permission request.
type PermissionOption struct {
	ID, Name string
	// Kind is allow_once, allow_always, reject_once or reject_always.
	Kind string
}

// PermissionRequest is what an agent asks a person's permission for: the
// step it wants to take and the answers it offers. The connection to the
// agent asks it, and the screen shows it.
type PermissionRequest struct {
	ToolCallID string
	Title      string
	Options    []PermissionOption
}
