package fold

import (
	"cmp"
	"maps"
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Checkpoint is a fold's state kept in memory so that a player can seek:
// FromCheckpoint gives a fold that continues exactly as the original did
// from that point. Unlike Export it shares the fold's messages, items, steps
// and runs instead of copying them, so taking and restoring one costs a copy
// of pointer lists, not of everything the fold holds.
//
// Sharing is safe because a fold never changes in place an object it shares
// with a checkpoint: from the moment it takes or restores one, it copies an
// object before its first change (see cow) and keeps the copy.
type Checkpoint struct {
	st  state // without the long lists, which are in lists
	idx indexes
	// lists are the fold's messages, items, steps and runs, in blocks
	// shared with the checkpoints taken before it.
	lists *cpLists
	// sheds is the fold's count of shedding calls when it was taken.
	sheds uint64
}

// indexes are a state's derived lookups (see reindex), as a checkpoint
// keeps them: shared, never written.
type indexes struct {
	keys      persist.Map[itemKey, *model.Item]
	stepAt    persist.Map[string, *model.Step]
	byID      persist.Map[string, *agui.Message]
	toolOwner persist.Map[string, *agui.Message]
	runs      runIndex
}

// Applied is how many records the checkpointed fold had applied.
func (c *Checkpoint) Applied() uint64 { return c.st.Applied }

// cow records which messages, items, steps and runs a fold may change in
// place: those it created or copied since its last checkpoint or restore.
// Every other object may be shared with a checkpoint and is copied (and the
// copy put in its place) before a change. A fold that never took or
// restored a checkpoint has no cow and copies nothing.
type cow struct {
	msgs  persist.Owned[agui.Message]
	items persist.Owned[model.Item]
	steps persist.Owned[model.Step]
	runs  persist.Owned[model.Run]
	// lists are the long lists of the checkpoint taken or restored, whose
	// blocks the next checkpoint shares.
	lists *cpLists
}

// Checkpoint returns the fold's state for seeking back to it later. From
// here on the fold copies what it changes, so the checkpoint stays as it is.
func (f *Fold) Checkpoint() *Checkpoint {
	f.flush()
	r, d := &f.st.Reduce, &f.st.Display
	if !r.byID.ready() {
		r.reindex()
	}
	if !d.keys.ready() {
		d.reindex()
	}
	var prev *cpLists
	if r.cow != nil {
		prev = r.cow.lists
	}
	lists := takeLists(&f.st, prev)
	cp := &Checkpoint{st: f.st.independent(), lists: lists, sheds: f.sheds, idx: indexes{
		keys: d.keys.share(), stepAt: d.stepAt.share(), byID: r.byID.share(), toolOwner: r.toolOwner.share(),
		runs: d.runIdx.share(),
	}}
	f.share()
	r.cow.lists = lists
	return cp
}

// FromCheckpoint returns a fold in the checkpoint's state, with opts (which
// should be those of the fold that took it). It can be called any number of
// times on the same checkpoint, from any goroutine; the folds it returns
// are independent.
func FromCheckpoint(cp *Checkpoint, opts Options) *Fold {
	f := &Fold{opts: opts, st: cp.st.independent(), restored: true, sheds: cp.sheds}
	cp.lists.put(&f.st)
	r, d := &f.st.Reduce, &f.st.Display
	// The shared indexes point at the checkpoint's objects, which are the
	// restored fold's until it copies them (and notes the copy on top).
	d.keys, d.stepAt = indexOf(cp.idx.keys), indexOf(cp.idx.stepAt)
	runs := cp.idx.runs // shared by every fold restored from cp: read from a copy
	d.runIdx = runs.share()
	r.byID, r.toolOwner = indexOf(cp.idx.byID), indexOf(cp.idx.toolOwner)
	f.share()
	r.cow.lists = cp.lists
	return f
}

// share starts copy-on-write: every object the fold holds now may be shared.
func (f *Fold) share() {
	c := &cow{}
	f.st.Reduce.cow, f.st.Display.cow = c, c
	// Caches may point at objects that are now shared.
	f.st.Reduce.lastID, f.st.Reduce.lastMsg = "", nil
}

// independent returns a copy of a flushed state that shares with st only
// objects the fold never changes in place without copying them first (see
// cow): the small per-run parts are deep copies; the derived indexes and
// the long lists of messages, items, steps and runs are left out (a
// checkpoint keeps the lists in blocks: checkpoint_lists.go).
func (st *state) independent() state {
	n := *st
	n.Legacy = st.Legacy
	n.Chunks = chunkState{Lanes: slices.Clone(st.Chunks.Lanes)}
	n.Verify = st.Verify.clone()
	n.Reduce = reduceState{
		State:             st.Reduce.State, // shared: a patch copies what a checkpoint shares before changing it
		RunToolCalls:      slices.Clip(st.Reduce.RunToolCalls),
		Answered:          st.Reduce.Answered.Share(),
		PendingInterrupts: slices.Clip(st.Reduce.PendingInterrupts),
		Gone:              st.Reduce.Gone.Share(),
		GoneCalls:         st.Reduce.GoneCalls.Share(),
		Tail:              slices.Clip(st.Reduce.Tail),
		TailCalls:         slices.Clip(st.Reduce.TailCalls),
		Forgotten:         st.Reduce.Forgotten, // never changed in place
		twice:             st.Reduce.twice,
	}
	n.Display = displayState{
		RunID:     st.Display.RunID,
		StepBase:  st.Display.StepBase,
		Gone:      maps.Clone(st.Display.Gone),
		Forgotten: st.Display.Forgotten, // never changed in place
		Sketches:  st.Display.Sketches.share(),
	}
	n.ACP = st.ACP.clone()
	n.Diagnostics = slices.Clip(st.Diagnostics)
	n.Warnings = slices.Clone(st.Warnings) // sorted in place by flushPatches
	return n
}

func (v *verifyState) clone() verifyState {
	n := *v
	n.Messages = slices.Clone(v.Messages)
	n.Tools = slices.Clone(v.Tools)
	n.Spans = slices.Clone(v.Spans)
	n.Reasoning = slices.Clone(v.Reasoning)
	n.MessageOwners = v.MessageOwners.Share()
	n.ToolOwners = v.ToolOwners.Share()
	n.ActivityOwners = v.ActivityOwners.Share()
	n.ReasoningOwners = v.ReasoningOwners.Share()
	n.Steps = slices.Clone(v.Steps)
	for i := range n.Steps {
		n.Steps[i].Names = slices.Clone(n.Steps[i].Names)
	}
	n.Subagents = slices.Clone(v.Subagents)
	n.Closed = maps.Clone(v.Closed)
	return n
}

// ownItem returns an item the fold may change: it itself, or a copy that
// takes its place when it may be shared with a checkpoint.
func (d *displayState) ownItem(it *model.Item) *model.Item {
	if d.cow == nil || it == nil {
		return it
	}
	if d.cow.items.Has(it) {
		return it
	}
	c := new(*it)
	// Items are in Seq order (add numbers them as it appends).
	if i, ok := slices.BinarySearchFunc(d.Items, it.Seq, func(x *model.Item, seq uint64) int {
		return cmp.Compare(x.Seq, seq)
	}); ok && d.Items[i] == it {
		d.Items[i] = c
	}
	if k := keyOf(it); k.ns != 0 && d.keys.get(k) == it {
		d.keys.set(k, c)
	}
	d.cow.items.Add(c)
	return c
}

// ownStep is ownItem for steps.
func (d *displayState) ownStep(s *model.Step) *model.Step {
	if d.cow == nil || s == nil {
		return s
	}
	if d.cow.steps.Has(s) {
		return s
	}
	c := new(*s)
	if i := s.Index - d.StepBase; i >= 0 && i < len(d.Steps) && d.Steps[i] == s {
		d.Steps[i] = c
	}
	if d.stepAt.get(s.ToolCallID) == s {
		d.stepAt.set(s.ToolCallID, c)
	}
	d.cow.steps.Add(c)
	return c
}

// ownRun is ownItem for runs.
func (d *displayState) ownRun(r *model.Run) *model.Run {
	if d.cow == nil || r == nil {
		return r
	}
	if d.cow.runs.Has(r) {
		return r
	}
	c := new(*r)
	if i := d.runAt(r.RunID); i >= 0 && d.Runs[i] == r {
		d.Runs[i] = c
	} else if i := slices.Index(d.Runs, r); i >= 0 {
		d.Runs[i] = c
	}
	d.cow.runs.Add(c)
	return c
}

// created marks an object the fold made as its own.
func (d *displayState) created(it *model.Item) {
	if d.cow != nil {
		d.cow.items.Add(it)
	}
}

// ownMessage is ownItem for messages. A message's metadata and tool calls
// change in place, so the copy gets its own.
func (r *reduceState) ownMessage(m *agui.Message) *agui.Message {
	if r.cow == nil || m == nil {
		return m
	}
	if r.cow.msgs.Has(m) {
		return m
	}
	c := copyMessage(m)
	// Messages changed after a checkpoint are nearly always recent ones.
	for i := len(r.Messages) - 1; i >= 0; i-- {
		r.searched++
		if r.Messages[i] == m {
			r.Messages[i] = c
			break
		}
	}
	if r.byID.get(m.ID) == m {
		r.byID.set(m.ID, c)
	}
	for _, tc := range m.ToolCalls {
		if r.toolOwner.get(tc.ID) == m {
			r.toolOwner.set(tc.ID, c)
		}
	}
	if r.lastMsg == m {
		r.lastMsg = c
	}
	r.cow.msgs.Add(c)
	return c
}

// createdMessage marks a message the fold made as its own.
func (r *reduceState) createdMessage(m *agui.Message) {
	if r.cow != nil {
		r.cow.msgs.Add(m)
	}
}

// copyMessage copies a message with everything the fold changes in place.
func copyMessage(m *agui.Message) *agui.Message {
	c := *m
	c.ToolCalls = slices.Clone(m.ToolCalls)
	for i := range c.ToolCalls {
		c.ToolCalls[i].Metadata = maps.Clone(c.ToolCalls[i].Metadata)
	}
	c.Metadata = maps.Clone(m.Metadata)
	return &c
}

// pruneCow lets the copy-on-write records go of the objects the fold has
// dropped (Trim), once they are many (persist.Owned.Prune).
// They record every object made since the last checkpoint or restore, and
// a fold that sheds as it goes may go on for hours without another.
func (f *Fold) pruneCow() {
	c := f.st.Display.cow
	if c == nil {
		return
	}
	d, r := &f.st.Display, &f.st.Reduce
	c.items.Prune(d.Items)
	c.steps.Prune(d.Steps)
	c.msgs.Prune(r.Messages)
}
