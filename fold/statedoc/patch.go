package statedoc

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// op is one operation of a patch, as read.
type op struct {
	kind, path, from string
	// value is the operation's value (nil when it has none); a null given
	// as the value is a fresh node (see node.fresh).
	value *node
	// height is value's height.
	height int
}

// errLibrary marks an operation left to the patch library (see the
// package comment).
var errLibrary = errors.New("left to the patch library")

// Apply applies patch, a JSON Patch (an array of operations), all or
// nothing: when an operation fails, the document is as it was and the
// error says why, in the patch library's words. A patch that would nest
// the document deeper than agui.MaxDepth fails with a *DepthError.
func (d *Doc) Apply(patch jsontext.Value) error {
	ops, ok := readOps(patch, d.gen)
	if !ok {
		// The library refuses what readOps does not read, before it
		// looks at the document; the rest it reads its own way.
		if err := agui.CheckPatch(patch); err != nil {
			return err
		}
		return d.viaLibrary(patch)
	}
	if !d.decoded() || aliases(ops) {
		return d.viaLibrary(patch)
	}
	for i := range ops {
		if v := ops[i].value; v != nil && v.fresh {
			d.fresh = append(d.fresh, v)
		}
	}
	changed := false
	for i := range ops {
		c, err := d.apply(&ops[i])
		if err != nil {
			d.rollback()
			if err == errLibrary {
				return d.viaLibrary(patch)
			}
			return err
		}
		changed = changed || c
	}
	d.commit()
	if changed {
		d.enc = nil
	}
	return nil
}

// viaLibrary applies patch with the patch library to the encoded
// document, as the fold did before this package.
func (d *Doc) viaLibrary(patch jsontext.Value) error {
	out, err := agui.ApplyPatch(d.JSON(), patch)
	if err != nil {
		return err
	}
	if depth := agui.Depth(out); depth > agui.MaxDepth {
		return &DepthError{Depth: depth}
	}
	d.raw, d.root, d.enc = out, nil, nil
	return nil
}

// readOps reads the operations of patch as the library reads them, with
// their values decoded as nodes of generation gen. It reports false for
// anything the library would refuse, or read in a way this package does
// not (a member given twice, say).
func readOps(patch jsontext.Value, gen uint64) ([]op, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(patch))
	switch dec.PeekKind() {
	case 'n':
		return nil, true // the library reads null as no operations
	case '[':
	default:
		return nil, false
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, false
	}
	var ops []op
	for dec.PeekKind() == '{' {
		o, ok := readOp(dec, gen)
		if !ok {
			return nil, false
		}
		ops = append(ops, o)
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != ']' {
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	return ops, true
}

// readOp reads one operation object, valid as the library validates one:
// a known op, a string path, a value for add and replace, a string from
// for move and copy.
func readOp(dec *jsontext.Decoder, gen uint64) (op, bool) {
	var o op
	if _, err := dec.ReadToken(); err != nil {
		return o, false
	}
	hasPath, hasFrom := false, false
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return o, false
		}
		switch name := tok.String(); name {
		case "op", "path", "from":
			tok, err := dec.ReadToken()
			if err != nil {
				return o, false
			}
			if tok.Kind() != '"' {
				if name == "from" {
					continue // only move and copy read it
				}
				return o, false
			}
			switch name {
			case "op":
				o.kind = tok.String()
			case "path":
				o.path, hasPath = tok.String(), true
			default:
				o.from, hasFrom = tok.String(), true
			}
		case "value":
			v, h, err := (&reader{d: dec, gen: gen}).value(0)
			if err != nil {
				return o, false
			}
			if v.kind == 'n' {
				v = &node{kind: 'n', raw: v.raw, fresh: true}
			}
			o.value, o.height = v, h
		default:
			if err := dec.SkipValue(); err != nil {
				return o, false
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return o, false
	}
	switch o.kind {
	case "add", "replace":
		return o, hasPath && o.value != nil
	case "move", "copy":
		return o, hasPath && hasFrom
	case "remove", "test":
		return o, hasPath
	}
	return o, false
}

// keyDecoder turns a path token into a member name (RFC 6901), as the
// library does.
var keyDecoder = strings.NewReplacer("~1", "/", "~0", "~")

func decodeKey(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return keyDecoder.Replace(token)
}

// aliases reports whether a move or copy of ops goes through an empty
// key: the library refuses the whole patch (agui.ApplyPatch), and so does
// a Doc.
func aliases(ops []op) bool {
	for i := range ops {
		if o := &ops[i]; (o.kind == "move" || o.kind == "copy") && (agui.EmptyKey(o.path) || agui.EmptyKey(o.from)) {
			return true
		}
	}
	return false
}
