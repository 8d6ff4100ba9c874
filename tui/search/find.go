package search

import (
	"slices"

	"github.com/agentwatch/agentwatch/model"
)

// Hit is an item of the thread the query matches: its Seq and, for a tool
// call, the index of its step (-1 otherwise). The item may be one the view
// let go of (found in an Archive), to be read back when it is gone to.
type Hit struct {
	Seq  uint64
	Step int
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
	for _, it := range items {
		switch it.Kind {
		case model.ItemToolCall:
			if it.Step < 0 || it.Step >= len(steps) || (keep != nil && !keep(it.Step)) {
				continue
			}
			if StepHas(steps[it.Step], m) {
				hits = append(hits, Hit{Seq: it.Seq, Step: it.Step})
			}
		case model.ItemMessage, model.ItemReasoning, model.ItemError, model.ItemDiagnostic:
			if m.In(it.Text) || m.In(it.Name) {
				hits = append(hits, Hit{Seq: it.Seq, Step: -1})
			}
		case model.ItemPlan:
			if m.In(string(it.Data)) {
				hits = append(hits, Hit{Seq: it.Seq, Step: -1})
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

// FindKept searches the items a view keeps, as Find does, beside the
// archive a of what it let go, and returns with the hits the Seq of every
// item it searched, sorted: the archive's scan leaves those out. A tool
// call whose step's content was let go is left to the archive when it has
// the item, since it has the content.
func FindKept(items []*model.Item, steps []*model.Step, m Matcher, keep func(step int) bool, a *Archive) (hits []Hit, live []uint64) {
	live = make([]uint64, 0, len(items))
	searched := items
	if !a.Empty() {
		searched = make([]*model.Item, 0, len(items))
		for _, it := range items {
			if it.Kind == model.ItemToolCall && a.Has(it.Seq) && (it.Step < 0 || it.Step >= len(steps) || steps[it.Step] == nil || steps[it.Step].Shed || steps[it.Step].Index < 0) {
				continue
			}
			searched = append(searched, it)
		}
	}
	for _, it := range searched {
		live = append(live, it.Seq)
	}
	slices.Sort(live)
	return Find(searched, steps, m, keep), live
}
