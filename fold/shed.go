package fold

import (
	"slices"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Shed counts what shedding dropped: display items, steps whose content
// went, and messages of the reduce state. Trim says what one call dropped
// (Trimmed.Shed), Fold.Shedded the totals, which a view shows as what it
// no longer holds.
type Shed struct {
	Items, Steps, Messages int
}

// shed is Trim's first half (trim.go): it drops every finished item but
// the newest keepItems, the content of every finished step but the newest
// keepSteps, the messages nothing kept shows and the output of terminals
// only shed steps show.
func (f *Fold) shed(keepItems, keepSteps int) Shed {
	out := Shed{
		Items: f.shedItems(max(keepItems, 0)),
		Steps: f.shedSteps(max(keepSteps, 0)),
	}
	out.Messages = f.shedMessages()
	terms := f.shedTerminals()
	f.st.Evicted += uint64(out.Items)
	f.st.ShedSteps += uint64(out.Steps)
	f.st.ShedMessages += uint64(out.Messages)
	if out != (Shed{}) || terms {
		f.sheds++
		f.pruneCow()
	}
	return out
}

// Shedded returns what Trim has shed in all, since the fold began (a
// restored fold counts what its snapshot's fold shed).
func (f *Fold) Shedded() Shed {
	return Shed{Items: int(f.st.Evicted), Steps: int(f.st.ShedSteps), Messages: int(f.st.ShedMessages)}
}

// shedItems drops every completed item but the newest keep of them.
func (f *Fold) shedItems(keep int) int {
	d, a := &f.st.Display, &f.st.ACP
	// The plan item is updated by every plan, and the item ACP chunks go
	// to by every chunk: dropping either would make the next one add an
	// item where the fold without shedding updates one.
	stays := func(it *model.Item) bool { return it.Seq == a.PlanSeq || it.Seq == a.Msg.Seq }
	b := len(d.Items)
	for n := 0; b > 0 && n < keep; {
		b--
		if it := d.Items[b]; it.Status.Done() && !stays(it) {
			n++
		}
	}
	if b == 0 {
		return 0
	}
	last := d.Items[b-1].Seq
	return d.dropItems(func(it *model.Item) bool {
		return it.Seq <= last && it.Status.Done() && !stays(it)
	})
}

// dropItems drops the items drop picks. For each key whose newest item
// goes it keeps a tombstone (Gone), so the key finds nothing from now on
// and an event that would update that item does not add one in its place.
func (d *displayState) dropItems(drop func(*model.Item) bool) int {
	if !d.keys.ready() {
		d.reindex()
	}
	kept := make([]*model.Item, 0, len(d.Items))
	for _, it := range d.Items {
		if !drop(it) {
			kept = append(kept, it)
			continue
		}
		// A tool call's item is found through its step, which stays, and
		// is never added again: it needs no tombstone.
		if k := keyOf(it); k.ns != 0 && k.ns != 't' && d.keys.get(k) == it {
			if d.Gone == nil {
				d.Gone = map[itemKey]uint64{}
			}
			d.Gone[k] = it.Seq
		}
	}
	n := len(d.Items) - len(kept)
	if n == 0 {
		return 0
	}
	// A fresh list and index: the old ones would hold on to what went.
	d.Items = slices.Clip(kept)
	d.reindexKeys()
	return n
}

// shedSteps drops the content of every completed step but the newest keep.
func (f *Fold) shedSteps(keep int) int {
	d, v := &f.st.Display, &f.st.Verify
	n, shed := 0, 0
	for i := len(d.Steps) - 1; i >= 0; i-- {
		s := d.Steps[i]
		// A call whose arguments still stream is open, whatever its status.
		if !s.Status.Done() || slices.Contains(v.Tools, s.ToolCallID) {
			continue
		}
		if n < keep {
			n++
			continue
		}
		if s.Shed {
			continue
		}
		s = d.ownStep(s)
		s.Shed = true
		clearContent(s)
		shed++
	}
	return shed
}

// clearContent drops a step's content, keeping what a timeline draws.
func clearContent(s *model.Step) {
	s.Args, s.ArgsJSON = "", nil
	s.Result, s.ResultJSON = "", nil
	s.Screenshots, s.Diffs = nil, nil
}

// shedMessages drops the completed messages no kept item or step shows.
// Messages sharing an id, and messages holding the same tool call, stay or
// go together, so the lookups the reference does (the first message with
// an id, the first holding a call) find what they would have.
func (f *Fold) shedMessages() int {
	r, d, v := &f.st.Reduce, &f.st.Display, &f.st.Verify
	if len(r.Messages) == 0 {
		return 0
	}
	if !d.stepAt.ready() {
		d.reindex()
	}
	if !r.byID.ready() {
		r.reindex()
	}
	keepID := map[string]bool{}
	for _, open := range [][]string{v.Messages, v.Reasoning, v.Spans} {
		for _, id := range open {
			keepID[id] = true
		}
	}
	for _, it := range d.Items {
		if keyOf(it).ns == 'm' {
			keepID[it.ID] = true
		}
	}
	for _, m := range r.Messages {
		if m.Role == agui.RoleActivity {
			keepID[m.ID] = true // an activity patch needs the content it patches
		}
	}
	// A call's messages stay while it streams and while its step keeps its
	// content. (A result that comes later for a dropped one goes where the
	// reference puts it: see goneCall.)
	shows := func(call string) bool {
		if slices.Contains(v.Tools, call) {
			return true
		}
		s := d.stepAt.get(call)
		return s == nil || !s.Shed
	}
	calls := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, m := range r.Messages {
			keep := keepID[m.ID]
			if !keep {
				keep = m.Role == agui.RoleTool && m.ToolCallID != "" && shows(m.ToolCallID)
				for i := 0; i < len(m.ToolCalls) && !keep; i++ {
					keep = calls[m.ToolCalls[i].ID] || shows(m.ToolCalls[i].ID)
				}
				if keep {
					keepID[m.ID], changed = true, true
				}
			}
			if keep {
				for _, tc := range m.ToolCalls {
					if !calls[tc.ID] {
						calls[tc.ID], changed = true, true
					}
				}
			}
		}
	}
	ms := r.Messages
	// from[i] is the id of the first message at i or after that stays.
	from := make([]string, len(ms)+1)
	for i := len(ms) - 1; i >= 0; i-- {
		from[i] = from[i+1]
		if keepID[ms[i].ID] {
			from[i] = ms[i].ID
		}
	}
	kept := make([]*agui.Message, 0, len(ms))
	for i, m := range ms {
		if keepID[m.ID] {
			kept = append(kept, m)
			continue
		}
		if seen := r.Gone.Has(m.ID); !seen || ms[i] == r.byID.get(m.ID) {
			// The first with the id, as find sees it.
			r.Gone.Set(m.ID, goneMessage{Role: m.Role, Next: from[i+1], Gen: f.st.Forgets})
			if from[i+1] == "" {
				r.Tail = append(r.Tail, m.ID)
			}
		}
		for _, tc := range m.ToolCalls {
			if r.toolOwner.get(tc.ID) != m {
				continue // a call is known by the first message holding it
			}
			g := goneCall{Name: tc.Function.Name, Gen: f.st.Forgets}.after(ms, i, tc.ID, from)
			r.GoneCalls.Set(tc.ID, g)
			if g.After && g.Next == "" {
				r.TailCalls = append(r.TailCalls, tc.ID)
			}
		}
	}
	n := len(ms) - len(kept)
	if n == 0 {
		return 0
	}
	r.Messages = slices.Clip(kept)
	r.reindex()
	return n
}

// shedTerminals drops the output of finished ACP terminals that only shed
// steps show (a step's Result shares it), and the text of shed steps'
// content blocks. It reports whether it dropped anything.
func (f *Fold) shedTerminals() bool {
	a, d := &f.st.ACP, &f.st.Display
	if len(a.Terminals) == 0 && len(a.Tools) == 0 {
		return false
	}
	if !d.stepAt.ready() {
		d.reindex()
	}
	dropped := false
	shown := map[string]bool{}
	for id, t := range a.Tools {
		if s := d.stepAt.get(id); s != nil && s.Shed {
			if t.Text != "" {
				t.Text, dropped = "", true
				a.Tools[id] = t
			}
			continue
		}
		for _, term := range t.Terminals {
			shown[term] = true
		}
	}
	for id, t := range a.Terminals {
		if shown[id] || t.Output == "" || (t.ExitCode == nil && t.Signal == "") {
			continue
		}
		t.Output, dropped = "", true
		a.Terminals[id] = t
		delete(a.out, id)
	}
	return dropped
}
