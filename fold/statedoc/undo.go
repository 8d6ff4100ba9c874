package statedoc

import "slices"

// undoStep takes back one change of the patch being applied, so that a
// patch whose last operation fails leaves the document as it found it
// without having copied it first.
type undoStep struct {
	kind undoKind
	n    *node // the container changed
	i    int
	old  *node
	name string
}

type undoKind uint8

const (
	undoSet    undoKind = iota // n.vals[i] was old
	undoAppend                 // a member was added at the end of object n
	undoHole                   // member i of object n (name, old) was removed
	undoInsert                 // an item was inserted at i in array n
	undoDelete                 // item i of array n (old) was removed
	undoRoot                   // the document was old
)

// rollback takes back every change of the patch being applied.
func (d *Doc) rollback() {
	for i := len(d.undo) - 1; i >= 0; i-- {
		u := &d.undo[i]
		n := u.n
		switch u.kind {
		case undoSet:
			n.vals[u.i] = u.old
		case undoAppend:
			last := len(n.vals) - 1
			if n.at != nil {
				delete(n.at, n.names[last])
			}
			n.names, n.vals = n.names[:last], n.vals[:last]
		case undoHole:
			n.vals[u.i] = u.old
			n.holes--
			if n.at != nil {
				n.at[u.name] = u.i
			}
		case undoInsert:
			n.vals = slices.Delete(n.vals, u.i, u.i+1)
		case undoDelete:
			n.vals = slices.Insert(n.vals, u.i, u.old)
		case undoRoot:
			d.root = u.old
		}
	}
	d.commit()
}

// commit ends the patch being applied: its changes stay.
func (d *Doc) commit() {
	for _, n := range d.holed {
		n.compact()
	}
	for _, n := range d.fresh {
		n.fresh = false // read from the document from now on
	}
	clear(d.undo)
	clear(d.holed)
	clear(d.fresh)
	d.undo, d.holed, d.fresh = d.undo[:0], d.holed[:0], d.fresh[:0]
}
