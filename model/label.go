package model

// This file words a step: its label on rows, cards and --plain lines, and
// the action a permission request asks about.

import (
	"strconv"
	"strings"
)

// Label is the step as a short phrase: the verb for its category (present
// tense while running, past when completed, "Delete failed", "Command
// failed (exit 1)", "Move cancelled" when it did not succeed) and what it
// acts on, or "Using <tool>" for a step of category other.
//
// What it acts on is its location; a search's pattern; a move's source and
// destination ("a.go → b.go"); else the agent's Title. Agents begin titles
// with a verb of their own ("Run `make`", "Fetch https://…"): the label keeps
// one verb, ours, in the step's tense ("Ran command · `make`"). A step of
// category other shows its Title instead of "Using <tool>".
func (s *Step) Label() string {
	verb := s.Category.Verb(s.Status)
	if s.Category == CategoryEdit && s.Status == StatusCompleted && (s.Created || s.OnlyNewFiles()) {
		verb = "Created"
	}
	if s.Subagent != "" {
		verb = subagentVerb(s.Status)
		if s.SubagentRunning && s.Status == StatusCompleted {
			verb = subagentVerb(StatusRunning) // the call returned; its subagent works on
		}
	}
	if s.Category == CategoryExecute && s.Status == StatusFailed && s.ExitCode != nil && *s.ExitCode != 0 {
		verb += " (exit " + strconv.Itoa(*s.ExitCode) + ")"
	}
	if verb == "" {
		switch {
		case s.Status == StatusFailed && s.Title != "":
			return "Failed · " + s.Title
		case s.Status == StatusCancelled && s.Title != "":
			return "Cancelled · " + s.Title
		case s.Status == StatusInterrupted && s.Title != "":
			return "Interrupted · " + s.Title
		case s.Title != "":
			return s.Title
		case s.Status == StatusFailed:
			verb = s.ToolName + " failed"
		case s.Status == StatusCancelled:
			verb = s.ToolName + " cancelled"
		case s.Status == StatusInterrupted:
			verb = s.ToolName + " interrupted"
		case s.Status == StatusCompleted:
			verb = "Used " + s.ToolName
		default:
			verb = "Using " + s.ToolName
		}
	}
	if sub := s.subject(); sub != "" {
		return verb + " · " + sub
	}
	return verb
}

// Action is the step as something to do, the way a permission request
// asks it: the agent's Title when it gave one ("Run `rm -rf build`"), else
// the category's verb and what the step acts on ("Delete /w/build"), else
// "Use <tool>"; "" when nothing is known.
func (s *Step) Action() string {
	if s.Title != "" {
		return s.Title
	}
	verb, ok := imperatives[s.Category]
	if !ok {
		if s.ToolName == "" {
			return ""
		}
		return "Use " + s.ToolName
	}
	if sub := s.subject(); sub != "" {
		return verb + " " + sub
	}
	return verb
}

// subject is what the step acts on, as its label says it after the verb.
func (s *Step) subject() string {
	switch s.Category {
	case CategorySearch:
		// The locations of a finished search are its matches, not what it
		// looked for.
		if s.Pattern != "" {
			return s.Pattern
		}
		if t := s.Category.trimLead(s.Title); t != "" {
			return t
		}
	case CategoryMove:
		if m := s.move(); m != "" {
			return m
		}
	}
	if s.Location != "" {
		return s.Location
	}
	return s.Category.trimLead(s.Title)
}

// move is a move's source and destination, "a.go → b.go", from its first
// and last locations or its Destination; "to b.go" when only the
// destination is known, "" when it is not. A destination in the source's
// folder is shown relative to it, so the row keeps room for both.
func (s *Step) move() string {
	from, to := s.Location, s.Destination
	if n := len(s.Locations); n > 0 {
		from = s.Locations[0].Path
		if n > 1 {
			to = s.Locations[n-1].Path
		}
	}
	switch {
	case to == "":
		return ""
	case from == "":
		return "to " + to
	}
	if dir := from[:strings.LastIndexAny(from, `/\`)+1]; dir != "" && len(to) > len(dir) && strings.HasPrefix(to, dir) {
		to = to[len(dir):]
	}
	return from + " → " + to
}

// imperatives are the categories' verbs as an instruction.
var imperatives = map[Category]string{
	CategoryRead:       "Read",
	CategoryEdit:       "Edit",
	CategoryDelete:     "Delete",
	CategoryMove:       "Move",
	CategorySearch:     "Search",
	CategoryExecute:    "Run",
	CategoryThink:      "Think about",
	CategoryFetch:      "Fetch",
	CategorySwitchMode: "Switch mode to",
}

// leads are the words, lower case, an agent's title may begin with that say
// what the category's verb says; a few take the word after them along
// ("search for", "switch to").
var leads = map[Category][]string{
	CategoryRead: {"read", "reads", "reading", "view", "views", "viewing", "viewed",
		"open", "opens", "opening", "opened"},
	CategoryEdit: {"edit", "edits", "editing", "edited", "write", "writes", "writing", "wrote",
		"create", "creates", "creating", "created", "modify", "modifies", "modifying", "modified",
		"update", "updates", "updating", "updated", "patch", "patches", "patching", "patched"},
	CategoryDelete: {"delete", "deletes", "deleting", "deleted", "remove", "removes", "removing", "removed"},
	CategoryMove:   {"move", "moves", "moving", "moved", "rename", "renames", "renaming", "renamed"},
	CategorySearch: {"search", "searches", "searching", "searched", "search for", "searching for", "searched for",
		"find", "finds", "finding", "found", "grep", "grepping", "glob", "look for", "looking for", "looked for"},
	CategoryExecute: {"run", "runs", "running", "ran", "execute", "executes", "executing", "executed", "exec"},
	CategoryThink: {"think", "thinks", "thinking", "thought", "think about", "thinking about", "thought about",
		"reason about", "reasoning about", "reasoned about"},
	CategoryFetch: {"fetch", "fetches", "fetching", "fetched", "download", "downloads", "downloading", "downloaded",
		"get", "gets", "getting", "got"},
	CategorySwitchMode: {"switch", "switches", "switching", "switched", "switch to", "switching to", "switched to",
		"switch mode to", "switching mode to", "switched mode to", "enter", "entering", "entered"},
}

// trimLead is title without the verb it begins with, when that verb is one
// of the category's leads (any case, as a whole word: "Readme" is not
// "Read"), and without the space or colon after it; the title as it is
// otherwise.
func (c Category) trimLead(title string) string {
	best := -1
	for _, l := range leads[c] {
		if len(l) <= best || len(title) < len(l) || !strings.EqualFold(title[:len(l)], l) {
			continue
		}
		if len(title) == len(l) || title[len(l)] == ' ' || title[len(l)] == ':' {
			best = len(l)
		}
	}
	if best < 0 {
		return title
	}
	return strings.TrimLeft(title[best:], ": ")
}

// subagentVerb is the verb of a step whose call runs a subagent.
func subagentVerb(st Status) string {
	switch st {
	case StatusCompleted:
		return "Subagent done"
	case StatusFailed:
		return "Subagent failed"
	case StatusCancelled:
		return "Subagent cancelled"
	case StatusInterrupted:
		return "Subagent interrupted"
	}
	return "Subagent working"
}

// OnlyNewFiles reports whether the step's content says its change made
// new files and only those: every diff has no old text, or its result is a
// unified diff from /dev/null (an agent's session file writes a new file
// so). The fold keeps the answer in Created, which stays when the content
// is shed.
func (s *Step) OnlyNewFiles() bool {
	if len(s.Diffs) > 0 {
		for _, d := range s.Diffs {
			if d.OldText != nil {
				return false
			}
		}
		return true
	}
	return strings.HasPrefix(s.Result, "--- /dev/null\n")
}
