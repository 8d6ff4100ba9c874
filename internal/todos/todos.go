// Package todos reads the to-do lists coding agents keep through a tool of
// their own (Claude Code's TodoWrite, Codex's update_plan, Gemini CLI's
// write_todos) as plan entries, so that a session's plan shows as a plan
// and not only as a step.
package todos

import "encoding/json"

// Entry is one item of a plan: what to do and how far it is (pending,
// in_progress, completed; cancelled for Gemini CLI).
type Entry struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// MaxEntries bounds the entries read of one list.
const MaxEntries = 500

// Plan reads the arguments of a call of tool as the agent's whole plan; ok
// is false for a tool that keeps no plan, or arguments that hold none.
func Plan(tool string, args []byte) (entries []Entry, ok bool) {
	var in struct {
		Todos *[]struct {
			Content     string `json:"content"`
			Description string `json:"description"`
			Status      string `json:"status"`
		} `json:"todos"`
		Plan *[]struct {
			Step   string `json:"step"`
			Status string `json:"status"`
		} `json:"plan"`
	}
	switch tool {
	case "TodoWrite", "write_todos", "update_plan":
	default:
		return nil, false
	}
	if json.Unmarshal(args, &in) != nil || in.Todos == nil && in.Plan == nil {
		return nil, false
	}
	out := []Entry{}
	if in.Todos != nil {
		for _, t := range *in.Todos {
			out = append(out, Entry{Content: first(t.Content, t.Description), Status: status(t.Status)})
		}
	}
	if in.Plan != nil {
		for _, p := range *in.Plan {
			out = append(out, Entry{Content: p.Step, Status: status(p.Status)})
		}
	}
	if len(out) > MaxEntries {
		out = out[:MaxEntries]
	}
	return out, true
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// status is an entry's status in the words a plan uses.
func status(s string) string {
	switch s {
	case "in_progress", "completed", "pending", "cancelled":
		return s
	case "in-progress", "inProgress", "active":
		return "in_progress"
	case "done", "complete":
		return "completed"
	}
	return "pending"
}

// Content is the AG-UI activity content of a plan: {"entries": [...]}.
func Content(entries []Entry) map[string]any {
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = map[string]any{"content": e.Content, "status": e.Status}
	}
	return map[string]any{"entries": list}
}
