package statedoc

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/agui"
)

// node is one JSON value of a decoded document. Objects keep their members
// in the order they were added, as the patch library did and the reference
// client does; a removed member leaves a hole (a nil value) until the
// object is compacted, so that removing one of many members costs the same
// as removing one of few.
type node struct {
	kind jsontext.Kind // '{', '[', or a scalar's kind: '"', '0', 't', 'f', 'n'
	// raw is a scalar's JSON text as it was read.
	raw jsontext.Value
	// names are an object's member names, vals its member values (nil for
	// a hole) or an array's items.
	names []string
	vals  []*node
	// at finds an object's members by name once it has more than a few.
	at    map[string]int
	holes int
	// fresh marks a null given as an operation's value in the patch being
	// applied. The library holds such a null as a value and a null read
	// from the document as nothing, which a test operation tells apart.
	fresh bool
	// gen is the generation of the Doc that made the node: only that Doc
	// may change it in place (see Doc.Share). Scalars never change.
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
	c := *n
	c.names = slices.Clone(n.names)
	c.vals = slices.Clone(n.vals)
	c.at = maps.Clone(n.at)
	c.gen = gen
	return &c
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
	c := &node{kind: v.kind, gen: gen, names: make([]string, 0, v.live()), vals: make([]*node, 0, v.live())}
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

// decode reads one JSON value into nodes of generation gen; it also
// returns the value's height.
func decode(raw []byte, gen uint64) (*node, int, error) {
	d := jsontext.NewDecoder(bytes.NewReader(raw))
	n, h, err := readNode(d, gen, 0)
	if err != nil {
		return nil, 0, err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, 0, errors.New("more than one JSON value")
	}
	return n, h, nil
}

// readNode reads a value whose containers would be at level depth+1.
func readNode(d *jsontext.Decoder, gen uint64, depth int) (*node, int, error) {
	switch k := d.PeekKind(); k {
	case '{', '[':
		if depth >= agui.MaxDepth {
			return nil, 0, errTooDeep
		}
		if _, err := d.ReadToken(); err != nil {
			return nil, 0, err
		}
		end := jsontext.Kind('}')
		if k == '[' {
			end = ']'
		}
		n := &node{kind: k, gen: gen}
		h := 0
		for d.PeekKind() != end {
			if k == '{' {
				tok, err := d.ReadToken()
				if err != nil {
					return nil, 0, err
				}
				n.names = append(n.names, tok.String())
			}
			v, vh, err := readNode(d, gen, depth+1)
			if err != nil {
				return nil, 0, err
			}
			n.vals = append(n.vals, v)
			h = max(h, vh)
		}
		if _, err := d.ReadToken(); err != nil {
			return nil, 0, err
		}
		if k == '{' && len(n.vals) > indexFrom {
			n.index()
		}
		return n, h + 1, nil
	case 0:
		_, err := d.ReadToken()
		return nil, 0, err
	default:
		v, err := d.ReadValue()
		if err != nil {
			return nil, 0, err
		}
		return &node{kind: k, raw: v.Clone()}, 0, nil
	}
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
