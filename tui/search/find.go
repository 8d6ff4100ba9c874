package search

import "github.com/agentwatch/agentwatch/model"

// Hit is an item of the thread the query matches: its index in the items
// and, for a tool call, the index of its step (-1 otherwise).
type Hit struct {
	Item, Step int
}

// Find returns the items whose text holds m's query, in the order of the
// items: a message's, thought's or problem's text, a plan's entries, and
// for a tool call its step's label, tool, location, arguments, output and
// diffs. Steps whose content was shed are searched by what is left of them
// (label and location). keep, when not nil, leaves out tool calls whose
// step it refuses (a filter).
func Find(items []*model.Item, steps []*model.Step, m Matcher, keep func(step int) bool) []Hit {
	if m.Empty() {
		return nil
	}
	var hits []Hit
	for i, it := range items {
		switch it.Kind {
		case model.ItemToolCall:
			if it.Step < 0 || it.Step >= len(steps) || (keep != nil && !keep(it.Step)) {
				continue
			}
			if StepHas(steps[it.Step], m) {
				hits = append(hits, Hit{Item: i, Step: it.Step})
			}
		case model.ItemMessage, model.ItemReasoning, model.ItemError, model.ItemDiagnostic:
			if m.In(it.Text) || m.In(it.Name) {
				hits = append(hits, Hit{Item: i, Step: -1})
			}
		case model.ItemPlan:
			if m.In(string(it.Data)) {
				hits = append(hits, Hit{Item: i, Step: -1})
			}
		}
	}
	return hits
}

// StepHas reports whether a step's label, tool, location, arguments,
// output or diffs hold m's query.
func StepHas(s *model.Step, m Matcher) bool {
	if s == nil {
		return false
	}
	if m.In(s.Category.Verb(s.Status)) || m.In(s.Title) || m.In(s.ToolName) || m.In(s.Location) ||
		m.In(s.Args) || m.In(s.Result) {
		return true
	}
	for _, d := range s.Diffs {
		if m.In(d.Path) || m.In(d.NewText) {
			return true
		}
	}
	return false
}
