package persist

// Owned records which objects a holder made or copied since it last shared
// what it holds: those it may change in place. Any other object it reaches
// may be shared (with a checkpoint, say), so the holder copies it before
// its first change, puts the copy in its place and records the copy. The
// zero Owned records nothing.
type Owned[T any] struct {
	set map[*T]struct{}
}

// Add records x as the holder's own.
func (o *Owned[T]) Add(x *T) {
	if o.set == nil {
		o.set = map[*T]struct{}{}
	}
	o.set[x] = struct{}{}
}

// Has reports whether x is the holder's own.
func (o *Owned[T]) Has(x *T) bool {
	_, ok := o.set[x]
	return ok
}

// Len is how many objects are recorded.
func (o *Owned[T]) Len() int { return len(o.set) }

// Prune lets the record go of the objects kept does not hold, once those
// are at least as many as the ones it holds (and at least 1,024): the
// record holds every object made since the last share, and a holder that
// drops what it made as it goes may go on for hours without sharing again
// (a screen that kept a resume point of a followed log once held every
// step made since, 1 GB after 400,000 tool calls). Rebuilding only then
// keeps its cost a constant share of the holder's. An object let go that
// comes back is copied before it changes, like any shared one.
func (o *Owned[T]) Prune(kept []*T) {
	if len(o.set) < 2*len(kept)+1024 {
		return
	}
	n := make(map[*T]struct{}, min(len(o.set), len(kept)))
	for _, x := range kept {
		if _, ok := o.set[x]; ok {
			n[x] = struct{}{}
		}
	}
	o.set = n
}
