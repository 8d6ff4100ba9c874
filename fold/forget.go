package fold

import (
	"hash/fnv"
	"slices"
)

// Forgot counts what Forget dropped: the skeletons of shed steps, the
// tombstones of shed items, messages and tool calls, the verifier's
// records of streams nothing holds any more, and old diagnostics and
// warnings.
type Forgot struct {
	Steps, Tombstones, Owners, Diagnostics int
}

// keepDiagnostics is how many of the newest diagnostics (and warnings)
// Forget keeps: each is also an item, which Shed drops like any other, so
// the list only serves the exported state and the counts.
const keepDiagnostics = 1024

// Forget drops what Shed leaves behind once it is old, so that a fold that
// follows an endless log holds what is shown and a bounded trace of the
// rest, however long the log (docs/ARCHITECTURE.md, law 5). Call it after
// Shed; --plain, which shows nothing of the past, does.
//
//   - The skeletons of shed, finished steps older than the newest
//     keepSteps steps: Steps then starts at StepBase, and a step's Index
//     never changes. A sketch of each stays, two bytes a step naming one
//     of a few shared ones: what a step timeline draws of it
//     (ForgottenStep).
//   - The tombstones Shed made before the previous call to Forget (an item
//     tombstone: when the dropped item is older than what the previous
//     call had made). Of a message's, a 64-bit hash of its id stays
//     (idHashes): agents resend a conversation's messages with each run,
//     and one forgotten outright would come back as new. That and the
//     steps' sketches are what still grows, by about 20 bytes a message
//     and 2 a step.
//   - The verifier's owners of streams that no kept item, step or message
//     shows, that are not open and have no tombstone.
//   - All but the newest 1024 diagnostics and warnings.
//
// So Forget changes nothing that is kept, and folding on goes as it would
// have for every event that names something kept or recently dropped. An
// event that names a message, tool call or item forgotten long ago folds
// as though the id were new: a late result for a forgotten step, for
// instance, shows as a step whose start never came, where without
// forgetting it would change the old step. Like Shed it never changes an
// object a checkpoint shares, and what it dropped is counted in the
// exported state.
func (f *Fold) Forget(keepSteps int) Forgot {
	return f.forget(keepSteps, false)
}

// Retire is Shed and Forget to the bone, for a thread nothing has been said
// in for long: every finished item, the content and the skeleton of every
// finished step, and every tombstone go; open items, steps and messages,
// state and runs stay. Folding on goes as Forget says.
func (f *Fold) Retire() Forgot {
	f.Shed(0, 0)
	return f.forget(0, true)
}

// forget is Forget; all drops every tombstone, not only the old ones.
func (f *Fold) forget(keepSteps int, all bool) Forgot {
	if f.resuming {
		return Forgot{}
	}
	f.flush()
	var out Forgot
	out.Steps = f.forgetSteps(max(keepSteps, 0))
	out.Tombstones = f.forgetTombstones(all)
	out.Owners = f.forgetOwners()
	out.Diagnostics = f.forgetDiagnostics()
	r, d := &f.st.Reduce, &f.st.Display
	if out == (Forgot{}) && f.st.ForgetMark == f.st.NextItem && r.Gone.Len()+r.GoneCalls.Len()+len(d.Gone) == 0 {
		// Nothing made since the last call and no tombstone to age: the
		// call changes nothing, and is not counted (a quiet thread's
		// checkpoint stays the one it has).
		return out
	}
	f.st.Forgets++
	f.st.ForgetMark = f.st.NextItem
	f.st.ForgotSteps += uint64(out.Steps)
	f.sheds++ // the state changed: a checkpoint taken before is stale
	f.pruneCow()
	return out
}

// forgetSteps drops the oldest steps while they are shed and finished and
// more than keep steps stay.
func (f *Fold) forgetSteps(keep int) int {
	d, v := &f.st.Display, &f.st.Verify
	n := 0
	for n < len(d.Steps)-keep {
		s := d.Steps[n]
		if !s.Shed || !s.Status.Done() || v.isOpen(&v.Tools, s.ToolCallID) {
			break
		}
		n++
	}
	if n == 0 {
		return 0
	}
	d.Sketches.pad(d.StepBase)
	for _, s := range d.Steps[:n] {
		d.Sketches.add(s)
	}
	// A fresh list and index: the old ones would hold on to what went.
	d.Steps = slices.Clone(d.Steps[n:])
	d.StepBase += n
	d.reindexSteps()
	return n
}

// forgetTombstones drops the tombstones made before the previous Forget,
// or all of them.
func (f *Fold) forgetTombstones(all bool) int {
	r, d := &f.st.Reduce, &f.st.Display
	n := 0
	mark := f.st.ForgetMark
	if all {
		mark = f.st.NextItem
	}
	if f.st.Forgets > 0 || all {
		old := f.st.Forgets - 1
		if all {
			old = f.st.Forgets + 1
		}
		var hs []uint64
		n += r.Gone.DropBefore(old, func(id string) { hs = append(hs, hashID(id)) })
		r.Forgotten = r.Forgotten.with(hs)
		n += r.GoneCalls.DropBefore(old, nil)
	}
	var hs []uint64
	for k, seq := range d.Gone {
		if seq < mark {
			delete(d.Gone, k)
			if k.ns == 'm' {
				hs = append(hs, hashID(k.id))
			}
			n++
		}
	}
	d.Forgotten = d.Forgotten.with(hs)
	if n == 0 {
		return 0
	}
	// Copies: a checkpoint may share the lists' arrays.
	r.Tail = slices.DeleteFunc(slices.Clone(r.Tail), func(id string) bool { return !r.Gone.Has(id) })
	r.TailCalls = slices.DeleteFunc(slices.Clone(r.TailCalls), func(id string) bool { return !r.GoneCalls.Has(id) })
	// Maps do not shrink: a copy of what is left lets the rest go.
	d.Gone = cloneOrNil(d.Gone)
	return n
}

// forgetOwners drops the verifier's owner of every stream that is not open
// and that no kept item, step or message, and no tombstone, names.
func (f *Fold) forgetOwners() int {
	v, r, d := &f.st.Verify, &f.st.Reduce, &f.st.Display
	named := map[string]struct{}{}
	name := func(id string) { named[id] = struct{}{} }
	for _, list := range [][]string{v.Messages, v.Tools, v.Spans, v.Reasoning} {
		for _, id := range list {
			name(id)
		}
	}
	for _, m := range r.Messages {
		name(m.ID)
		for _, tc := range m.ToolCalls {
			name(tc.ID)
		}
		if m.ToolCallID != "" {
			name(m.ToolCallID)
		}
	}
	for _, it := range d.Items {
		name(it.ID)
	}
	for _, s := range d.Steps {
		name(s.ToolCallID)
	}
	for id := range r.Gone.All() {
		name(id)
	}
	for id := range r.GoneCalls.All() {
		name(id)
	}
	for k := range d.Gone {
		name(k.id)
	}
	n := 0
	for _, o := range []*owners{&v.MessageOwners, &v.ToolOwners, &v.ActivityOwners, &v.ReasoningOwners} {
		n += o.Retain(func(id string, _ tag) bool {
			_, ok := named[id]
			return ok
		})
	}
	return n
}

// forgetDiagnostics keeps the newest keepDiagnostics diagnostics and
// warnings.
func (f *Fold) forgetDiagnostics() int {
	n := 0
	if extra := len(f.st.Diagnostics) - keepDiagnostics; extra > 0 {
		f.st.Diagnostics = slices.Clone(f.st.Diagnostics[extra:])
		f.st.ForgotDiagnostics += uint64(extra)
		n += extra
	}
	if extra := len(f.st.Warnings) - keepDiagnostics; extra > 0 {
		f.st.Warnings = slices.Clone(f.st.Warnings[extra:])
		n += extra
	}
	return n
}

// hashID is id's 64-bit FNV-1a hash.
func hashID(id string) uint64 {
	x := fnv.New64a()
	x.Write([]byte(id))
	return x.Sum64()
}

// cloneOrNil copies m, nil when it is empty.
func cloneOrNil[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
