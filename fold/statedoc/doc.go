// Package statedoc holds an agent's state document: the JSON value that
// STATE_SNAPSHOT replaces and STATE_DELTA patches (RFC 6902), decoded once
// and changed in place.
//
// Handing the state to a patch library as JSON for every patch would
// decode and encode all of it each time. Here a patch costs what its
// operations touch. The results and error messages
// are still the library's (github.com/evanphx/json-patch/v5, with the
// options agui.ApplyPatch sets), member order and its quirks included, down
// to the message of the panic it recovers from when a test compares arrays
// holding null. The few patches this package does not do itself — a path
// of "" or one that does not start with "/", an empty name at the end of a
// path or on the top-level container, a state that is no object or array —
// are handed to the library on the encoded document, as before.
//
// A Doc is shared copy-on-write: after Share, neither the Doc nor the
// copies made of it before change in place a container they may share.
package statedoc

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Doc is a state document. The zero Doc is the empty object, the state
// before any snapshot. Copying a Doc (assignment) gives a second Doc that
// shares the first one's content; call Share on any of them that will be
// patched after the copy was made.
type Doc struct {
	// raw is the document as JSON while root is nil: a snapshot is kept as
	// it came until a patch needs it decoded.
	raw jsontext.Value
	// root is the decoded document.
	root *node
	// gen is the generation whose containers this Doc may change in place.
	gen uint64
	// enc is root encoded, kept until the next change.
	enc jsontext.Value
	// undo takes back the operations of the patch being applied.
	undo []undoStep
	// holed are objects that got holes in the patch being applied, fresh
	// the nulls it gave as values (see node.fresh).
	holed []*node
	fresh []*node
}

// New returns a document holding the JSON value raw, which is kept, not
// copied: it must not change afterwards.
func New(raw jsontext.Value) Doc { return Doc{raw: raw} }

// Share starts copy-on-write: every container d holds now may be held by
// a copy of d too, so d copies it before its first change.
func (d *Doc) Share() {
	d.gen++
	d.undo, d.holed, d.fresh = nil, nil, nil // their arrays may be a copy's too
}

// JSON returns the document encoded as compact JSON. The result is the
// Doc's own until the next change: read it, do not change it.
func (d *Doc) JSON() jsontext.Value {
	if d.enc != nil {
		return d.enc
	}
	var buf bytes.Buffer
	e := jsontext.NewEncoder(&buf)
	var err error
	if d.root != nil {
		err = encode(e, d.root)
	} else {
		err = e.WriteValue(d.source())
	}
	if err != nil {
		// Only a raw value that is not valid JSON gets here (the fold
		// never keeps one): it stays as it came.
		return d.source()
	}
	d.enc = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return d.enc
}

// source is raw, or the empty object for the zero Doc.
func (d *Doc) source() jsontext.Value {
	if d.raw == nil {
		return jsontext.Value("{}")
	}
	return d.raw
}

// MarshalJSONTo writes the document, so that a Doc inside an exported
// snapshot is written as the JSON value it holds.
func (d *Doc) MarshalJSONTo(e *jsontext.Encoder) error {
	if d.root != nil {
		return encode(e, d.root)
	}
	return e.WriteValue(d.source())
}

// UnmarshalJSONFrom reads a document back from a snapshot.
func (d *Doc) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*d = Doc{raw: v.Clone()}
	return nil
}

// decoded makes sure root holds the document, and reports whether it
// could: only an object or an array is patched here.
func (d *Doc) decoded() bool {
	if d.root != nil {
		return true
	}
	src := d.source()
	if k := src.Kind(); k != '{' && k != '[' {
		return false
	}
	root, _, err := decode(src, d.gen)
	if err != nil {
		return false
	}
	d.root = root
	return true
}

// DepthError is a patch that would nest the document deeper than
// agui.MaxDepth; the document is left as it was.
type DepthError struct {
	// Depth is how deep the document would have been, at least.
	Depth int
}

// Error says how deep the state would have been, and the limit.
func (e *DepthError) Error() string {
	return fmt.Sprintf("the state would be nested %d levels deep; agentwatch keeps state up to %d levels", e.Depth, agui.MaxDepth)
}
