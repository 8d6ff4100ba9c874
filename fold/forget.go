package fold

import (
	"hash/fnv"
	"slices"
)

// Forgot counts what forgetting dropped: the skeletons of shed steps, the
// tombstones of shed items, messages and tool calls, the verifier's
// records of streams nothing holds any more, and old diagnostics and
// warnings (Trimmed.Forgot).
type Forgot struct {
	Steps, Tombstones, Owners, Diagnostics int
}

// keepDiagnostics is how many of the newest diagnostics (and warnings) a
// Trim that forgets tombstones keeps: each is also an item, which Trim
// drops like any other, so the list only serves the exported state and
// the counts.
const keepDiagnostics = 1024

// forget is Trim's second half (trim.go): it drops the skeletons of the
// oldest shed, finished steps but the newest keepSteps, keeping a sketch
// of each, and the tombstones t does not keep, with the owners and
// diagnostics that go with them.
func (f *Fold) forget(keepSteps int, t Tombstones) Forgot {
	var out Forgot
	out.Steps = f.forgetSteps(max(keepSteps, 0))
	if t == TombstonesAll {
		// Steps alone: no tombstone ages, so this is no generation.
		if out.Steps > 0 {
			f.st.ForgotSteps += uint64(out.Steps)
			f.sheds++
			f.pruneCow()
		}
		return out
	}
	out.Tombstones = f.forgetTombstones(t == TombstonesNone)
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

// forgetTombstones drops the tombstones made before the previous Trim
// that forgot tombstones, or all of them.
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
