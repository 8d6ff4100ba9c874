package statedoc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The patch library's errors, whose words its messages end with.
var (
	errTestFailed   = errors.New("test failed")
	errMissing      = errors.New("missing value")
	errInvalid      = errors.New("invalid state detected")
	errInvalidIndex = errors.New("invalid index referenced")
)

// errPanicked is the message of a patch the library answers by panicking
// (a test that compares arrays holding null), as agui.ApplyPatch words it.
var errPanicked = errors.New("patch could not be applied: runtime error: invalid memory address or nil pointer dereference")

// apply applies one operation, as the library does, and reports whether
// it changed the document. Every change it makes is noted for rollback.
func (d *Doc) apply(o *op) (bool, error) {
	switch o.kind {
	case "add":
		con, level, key, err := d.locate(o.path, true)
		if err != nil {
			return false, err
		}
		if con == nil {
			return false, fmt.Errorf("add operation does not apply: doc is missing path: \"%s\": %w", o.path, errMissing)
		}
		if err := d.deep(level, o.height); err != nil {
			return false, err
		}
		if err := d.add(con, key, o.value); err != nil {
			return false, fmt.Errorf("error in add for path: '%s': %w", o.path, err)
		}
		return true, nil
	case "remove":
		con, _, key, err := d.locate(o.path, true)
		if err != nil {
			return false, err
		}
		if con == nil {
			return false, fmt.Errorf("remove operation does not apply: doc is missing path: \"%s\": %w", o.path, errMissing)
		}
		if _, err := d.remove(con, key); err != nil {
			return false, fmt.Errorf("error in remove for path: '%s': %w", o.path, err)
		}
		return true, nil
	case "replace":
		con, level, key, err := d.locate(o.path, true)
		if err != nil {
			return false, err
		}
		if con == nil {
			return false, fmt.Errorf("replace operation does not apply: doc is missing path: %s: %w", o.path, errMissing)
		}
		i, err := get(con, key)
		if err != nil {
			return false, fmt.Errorf("replace operation does not apply: doc is missing key: %s: %w", o.path, errMissing)
		}
		if err := d.deep(level, o.height); err != nil {
			return false, err
		}
		d.set(con, i, o.value)
		return true, nil
	case "move":
		return d.move(o)
	case "copy":
		return d.copy(o)
	case "test":
		return false, d.test(o)
	}
	return false, errLibrary
}

func (d *Doc) move(o *op) (bool, error) {
	if o.from == "" {
		return false, fmt.Errorf("unable to move entire document to another path: %w", errInvalid)
	}
	con, _, key, err := d.locate(o.from, true)
	if err != nil {
		return false, err
	}
	if con == nil {
		return false, fmt.Errorf("move operation does not apply: doc is missing from path: %s: %w", o.from, errMissing)
	}
	if _, err := get(con, key); err != nil {
		return false, fmt.Errorf("error in move for path: '%s': %w", key, err)
	}
	val, err := d.remove(con, key)
	if err != nil {
		return false, fmt.Errorf("error in move for path: '%s': %w", key, err)
	}
	con, level, key, err := d.locate(o.path, true)
	if err != nil {
		return false, err
	}
	if con == nil {
		return false, fmt.Errorf("move operation does not apply: doc is missing destination path: %s: %w", o.path, errMissing)
	}
	if err := d.deep(level, height(val)); err != nil {
		return false, err
	}
	if err := d.add(con, key, val); err != nil {
		return false, fmt.Errorf("error in move for path: '%s': %w", o.path, err)
	}
	return true, nil
}

func (d *Doc) copy(o *op) (bool, error) {
	con, _, key, err := d.locate(o.from, false)
	if err != nil {
		return false, err
	}
	if con == nil {
		return false, fmt.Errorf("copy operation does not apply: doc is missing from path: \"%s\": %w", o.from, errMissing)
	}
	i, err := get(con, key)
	if err != nil {
		return false, fmt.Errorf("error in copy for from: '%s': %w", o.from, err)
	}
	val := con.vals[i]
	con, level, key, err := d.locate(o.path, true)
	if err != nil {
		return false, err
	}
	if con == nil {
		return false, fmt.Errorf("copy operation does not apply: doc is missing destination path: %s: %w", o.path, errMissing)
	}
	val = d.deepCopy(val)
	if err := d.deep(level, height(val)); err != nil {
		return false, err
	}
	if err := d.add(con, key, val); err != nil {
		return false, fmt.Errorf("error while adding value during copy: %w", err)
	}
	return true, nil
}

func (d *Doc) test(o *op) error {
	con, _, key, err := d.locate(o.path, false)
	if err != nil {
		return err
	}
	if con == nil {
		return fmt.Errorf("test operation does not apply: is missing path: %s: %w", o.path, errMissing)
	}
	var val *node
	if con.kind == '[' {
		i, err := get(con, key)
		if err != nil {
			return fmt.Errorf("error in test for path: '%s': %w", o.path, err)
		}
		val = con.vals[i]
	} else if i := con.member(key); i >= 0 {
		val = con.vals[i]
	}
	failed := fmt.Errorf("testing value %s failed: %w", o.path, errTestFailed)
	valueNull := o.value == nil || o.value.kind == 'n'
	switch {
	case val == nil || val.absent():
		if !valueNull {
			return failed
		}
	case valueNull:
		return failed
	default:
		eq, panics := equal(val, o.value)
		if panics {
			return errPanicked
		}
		if !eq {
			return failed
		}
	}
	return nil
}

// locate walks path to the container its last token names a member of,
// as the library's findObject does, and returns that container (nil when
// the path does not lead to one), its level (1 for the document) and the
// member's name. With write, every container on the way becomes the
// Doc's own (copy-on-write). It returns errLibrary for the paths left to
// the library.
func (d *Doc) locate(path string, write bool) (con *node, level int, key string, err error) {
	if path == "" || path[0] != '/' {
		return nil, 0, "", errLibrary
	}
	tokens := strings.Split(path[1:], "/")
	key = decodeKey(tokens[len(tokens)-1])
	if key == "" {
		return nil, 0, "", errLibrary // the library gets a container's self
	}
	n := d.root
	if write && n.gen != d.gen {
		n = n.clone(d.gen)
		d.root = n
	}
	for level = 1; level < len(tokens); level++ {
		name := decodeKey(tokens[level-1])
		if name == "" {
			if level == 1 {
				return nil, 0, "", errLibrary // the document as it was read
			}
			return nil, 0, "", nil
		}
		i, err := get(n, name)
		if err != nil {
			return nil, 0, "", nil
		}
		child := n.vals[i]
		if !child.container() {
			return nil, 0, "", nil
		}
		if write && child.gen != d.gen {
			child = child.clone(d.gen)
			n.vals[i] = child
		}
		n = child
	}
	return n, level, key, nil
}

// get finds a member or an item as the library's get does: its position,
// or the library's error.
func get(n *node, key string) (int, error) {
	if n.kind == '{' {
		i := n.member(key)
		if i < 0 {
			return -1, fmt.Errorf("unable to get nonexistent key: %s: %w", key, errMissing)
		}
		return i, nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return -1, err
	}
	if idx < 0 {
		if idx < -len(n.vals) {
			return -1, invalidIndex(idx)
		}
		idx += len(n.vals)
	}
	if idx >= len(n.vals) {
		return -1, invalidIndex(idx)
	}
	return idx, nil
}

func invalidIndex(idx int) error {
	return fmt.Errorf("Unable to access invalid index: %d: %w", idx, errInvalidIndex)
}

// add adds v as member key of con, or inserts it at index key.
func (d *Doc) add(con *node, key string, v *node) error {
	if con.kind == '{' {
		if i := con.member(key); i >= 0 {
			d.set(con, i, v)
			return nil
		}
		d.undo = append(d.undo, undoStep{kind: undoAppend, n: con})
		con.appendMember(key, v)
		return nil
	}
	if key == "-" {
		d.undo = append(d.undo, undoStep{kind: undoInsert, n: con, i: len(con.vals)})
		con.vals = append(con.vals, v)
		return nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return fmt.Errorf("value was not a proper array index: '%s': %w", key, err)
	}
	size := len(con.vals) + 1
	if idx >= size {
		return invalidIndex(idx)
	}
	if idx < 0 {
		if idx < -size {
			return invalidIndex(idx)
		}
		idx += size
	}
	d.undo = append(d.undo, undoStep{kind: undoInsert, n: con, i: idx})
	con.vals = append(con.vals, nil)
	copy(con.vals[idx+1:], con.vals[idx:])
	con.vals[idx] = v
	return nil
}

// set replaces the member or item at position i.
func (d *Doc) set(con *node, i int, v *node) {
	d.undo = append(d.undo, undoStep{kind: undoSet, n: con, i: i, old: con.vals[i]})
	con.vals[i] = v
}

// remove removes member key of con, or the item at index key, and returns it.
func (d *Doc) remove(con *node, key string) (*node, error) {
	if con.kind == '{' {
		i := con.member(key)
		if i < 0 {
			return nil, fmt.Errorf("unable to remove nonexistent key: %s: %w", key, errMissing)
		}
		old := con.vals[i]
		d.undo = append(d.undo, undoStep{kind: undoHole, n: con, i: i, old: old, name: key})
		con.vals[i] = nil
		con.holes++
		if con.at != nil {
			delete(con.at, key)
		}
		d.holed = append(d.holed, con)
		return old, nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return nil, err
	}
	if idx >= len(con.vals) {
		return nil, invalidIndex(idx)
	}
	if idx < 0 {
		if idx < -len(con.vals) {
			return nil, invalidIndex(idx)
		}
		idx += len(con.vals)
	}
	old := con.vals[idx]
	d.undo = append(d.undo, undoStep{kind: undoDelete, n: con, i: idx, old: old})
	con.vals = append(con.vals[:idx], con.vals[idx+1:]...)
	return old, nil
}

// deep refuses a value of height h put in a container at level.
func (d *Doc) deep(level, h int) error {
	if level+h > agui.MaxDepth {
		return &DepthError{Depth: level + h}
	}
	return nil
}

// deepCopy is the library's copy of v: the JSON it encodes to, read back,
// so a null below a container reads as nothing and one on top stays a
// value.
func (d *Doc) deepCopy(v *node) *node {
	if v.kind == 'n' && v.fresh {
		c := &node{kind: 'n', raw: v.raw, fresh: true}
		d.fresh = append(d.fresh, c)
		return c
	}
	return deepCopy(v, d.gen)
}
