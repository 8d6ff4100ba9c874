package statedoc

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// node is one JSON value of a decoded document. A scalar is its JSON text
// (a slice of the document it was read from, not a copy); an object or an
// array has its content in members. A state is mostly scalars, so they
// are kept small (TestDecodedSize holds the size of a decoded list of
// small objects).
type node struct {
	*members // nil for a scalar
	// raw is a scalar's JSON text as it was read.
	raw  jsontext.Value
	kind jsontext.Kind // '{', '[', or a scalar's kind: '"', '0', 't', 'f', 'n'
	// fresh marks a null given as an operation's value in the patch being
	// applied. The library holds such a null as a value and a null read
	// from the document as nothing, which a test operation tells apart.
	fresh bool
}

// members are an object's names and values (in the order they were
// added, as the patch library and the reference client keep them) or an
// array's items. A removed member leaves a hole (a nil value) until the
// object is compacted, so that removing one of many members costs the
// same as removing one of few.
type members struct {
	names []string
	vals  []*node
	// at finds an object's members by name once it has more than a few.
	at    map[string]int
	holes int
	// gen is the generation of the Doc that made the container: only
	// that Doc may change it in place (see Doc.Share).
	gen uint64
}

// indexFrom is how many members an object has before it gets an index.
const indexFrom = 8

func (n *node) container() bool { return n.kind == '{' || n.kind == '[' }

func (n *node) isNull() bool { return n.kind == 'n' }

// member returns the position of the member called name, or -1.
func (n *node) member(name string) int {
	if n.at != nil {
		if i, ok := n.at[name]; ok {
			return i
		}
		return -1
	}
	for i, s := range n.names {
		if s == name && n.vals[i] != nil {
			return i
		}
	}
	return -1
}

// live is how many members or items n has.
func (n *node) live() int { return len(n.vals) - n.holes }

// appendMember adds a member at the end.
func (n *node) appendMember(name string, v *node) {
	n.names = append(n.names, name)
	n.vals = append(n.vals, v)
	if n.at != nil {
		n.at[name] = len(n.vals) - 1
	} else if n.live() > indexFrom {
		n.index()
	}
}

func (n *node) index() {
	n.at = make(map[string]int, len(n.vals))
	for i, s := range n.names {
		if n.vals[i] != nil {
			n.at[s] = i
		}
	}
}

// compact drops the holes of an object when they outnumber its members.
func (n *node) compact() {
	if n.holes <= indexFrom || n.holes <= n.live() {
		return
	}
	names, vals := make([]string, 0, n.live()), make([]*node, 0, n.live())
	for i, v := range n.vals {
		if v != nil {
			names, vals = append(names, n.names[i]), append(vals, v)
		}
	}
	n.names, n.vals, n.holes = names, vals, 0
	n.index()
}

// clone is a shallow copy of a container that generation gen owns.
func (n *node) clone(gen uint64) *node {
	m := &members{names: slices.Clone(n.names), vals: slices.Clone(n.vals), at: maps.Clone(n.at), holes: n.holes, gen: gen}
	return &node{members: m, kind: n.kind}
}

// newContainer is an empty object or array of generation gen.
func newContainer(kind jsontext.Kind, gen uint64) *node {
	return &node{members: &members{gen: gen}, kind: kind}
}

// deepCopy copies v whole, for the copy operation. Scalars are shared (they
// never change), except a fresh null, which the copy holds as read from
// the document.
func deepCopy(v *node, gen uint64) *node {
	if !v.container() {
		if v.fresh {
			return &node{kind: v.kind, raw: v.raw}
		}
		return v
	}
	c := newContainer(v.kind, gen)
	c.names, c.vals = make([]string, 0, v.live()), make([]*node, 0, v.live())
	for i, x := range v.vals {
		if x == nil {
			continue
		}
		if c.kind == '{' {
			c.names = append(c.names, v.names[i])
		}
		c.vals = append(c.vals, deepCopy(x, gen))
	}
	if c.kind == '{' && c.live() > indexFrom {
		c.index()
	}
	return c
}

// height is how many levels of containers v has: 0 for a scalar.
func height(v *node) int {
	if !v.container() {
		return 0
	}
	h := 0
	for _, x := range v.vals {
		if x != nil {
			h = max(h, height(x))
		}
	}
	return h + 1
}

// errTooDeep is a value nested deeper than agui.MaxDepth.
var errTooDeep = errors.New("too deep")

// decode reads the JSON value src into nodes of generation gen, whose
// scalars are slices of src (which must not change); it also returns the
// value's height.
func decode(src []byte, gen uint64) (*node, int, error) {
	r := reader{d: jsontext.NewDecoder(bytes.NewReader(src)), src: src, gen: gen, names: map[string]string{}}
	n, h, err := r.value(0)
	if err != nil {
		return nil, 0, err
	}
	if _, err := r.d.ReadToken(); err != io.EOF {
		return nil, 0, errors.New("more than one JSON value")
	}
	return n, h, nil
}

// reader reads nodes from a decoder.
type reader struct {
	d   *jsontext.Decoder
	gen uint64
	// src, when set, is the decoder's input: scalars are slices of it.
	// Otherwise they are copies.
	src []byte
	// names holds the member names read so far (up to maxNames), so that
	// the many objects of a list that share their names share them.
	names map[string]string
}

// maxNames bounds the names a reader shares.
const maxNames = 4096

// value reads a value whose containers would be at level depth+1.
func (r *reader) value(depth int) (*node, int, error) {
	switch k := r.d.PeekKind(); k {
	case '{', '[':
		if depth >= agui.MaxDepth {
			return nil, 0, errTooDeep
		}
		if _, err := r.d.ReadToken(); err != nil {
			return nil, 0, err
		}
		end := jsontext.Kind('}')
		if k == '[' {
			end = ']'
		}
		n := newContainer(k, r.gen)
		h := 0
		for r.d.PeekKind() != end {
			if k == '{' {
				tok, err := r.d.ReadToken()
				if err != nil {
					return nil, 0, err
				}
				n.names = append(n.names, r.name(tok.String()))
			}
			v, vh, err := r.value(depth + 1)
			if err != nil {
				return nil, 0, err
			}
			n.vals = append(n.vals, v)
			h = max(h, vh)
		}
		if _, err := r.d.ReadToken(); err != nil {
			return nil, 0, err
		}
		if k == '{' && len(n.vals) > indexFrom {
			n.index()
		}
		return n, h + 1, nil
	case 0:
		_, err := r.d.ReadToken()
		return nil, 0, err
	default:
		v, err := r.d.ReadValue()
		if err != nil {
			return nil, 0, err
		}
		end := int(r.d.InputOffset())
		if start := end - len(v); r.src != nil && start >= 0 && bytes.Equal(r.src[start:end], v) {
			return &node{kind: k, raw: r.src[start:end:end]}, 0, nil
		}
		return &node{kind: k, raw: v.Clone()}, 0, nil
	}
}

// name returns s, or the same name read before.
func (r *reader) name(s string) string {
	if r.names == nil {
		return s
	}
	if t, ok := r.names[s]; ok {
		return t
	}
	if len(r.names) < maxNames {
		r.names[s] = s
	}
	return s
}

// encode writes n to e.
func encode(e *jsontext.Encoder, n *node) error {
	switch n.kind {
	case '{', '[':
		open, end := jsontext.BeginObject, jsontext.EndObject
		if n.kind == '[' {
			open, end = jsontext.BeginArray, jsontext.EndArray
		}
		if err := e.WriteToken(open); err != nil {
			return err
		}
		for i, v := range n.vals {
			if v == nil {
				continue
			}
			if n.kind == '{' {
				if err := e.WriteToken(jsontext.String(n.names[i])); err != nil {
					return err
				}
			}
			if err := encode(e, v); err != nil {
				return err
			}
		}
		return e.WriteToken(end)
	default:
		return e.WriteValue(n.raw)
	}
}
