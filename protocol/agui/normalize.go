package agui

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Normalize rewrites a JSON value that only a lenient reader accepts into
// strict JSON: invalid UTF-8 becomes U+FFFD and a member name given twice
// keeps its first place and its last value, as JavaScript's JSON.parse does.
// Numbers keep their exact text. It reports false when raw is not JSON at all.
//
// Real producers do send such bytes; once normalised, an event can be
// exported in a checkpoint and compared with strict tools.
func Normalize(raw []byte) ([]byte, bool) {
	d := jsontext.NewDecoder(bytes.NewReader(raw), decodeOptions)
	var out bytes.Buffer
	e := jsontext.NewEncoder(&out)
	n, err := readNode(d, 0)
	if err != nil {
		return nil, false
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, false // more than one value, or trailing garbage
	}
	if err := n.write(e); err != nil {
		return nil, false
	}
	return bytes.TrimRight(out.Bytes(), "\n"), true
}

// node is a parsed JSON value with object members in order.
type node struct {
	tok     jsontext.Token // scalars
	kind    jsontext.Kind
	names   []string
	members []*node
	items   []*node
}

// maxNormalizeDepth bounds recursion on hostile input.
const maxNormalizeDepth = 10000

var errTooDeep = errors.New("nested too deeply")

func readNode(d *jsontext.Decoder, depth int) (*node, error) {
	if depth > maxNormalizeDepth {
		return nil, errTooDeep
	}
	tok, err := d.ReadToken()
	if err != nil {
		return nil, err
	}
	n := &node{kind: tok.Kind()}
	switch tok.Kind() {
	case '{':
		at := map[string]int{}
		for d.PeekKind() != '}' {
			nameTok, err := d.ReadToken()
			if err != nil {
				return nil, err
			}
			name := nameTok.String()
			v, err := readNode(d, depth+1)
			if err != nil {
				return nil, err
			}
			if i, dup := at[name]; dup {
				n.members[i] = v
				continue
			}
			at[name] = len(n.names)
			n.names = append(n.names, name)
			n.members = append(n.members, v)
		}
		_, err = d.ReadToken()
		return n, err
	case '[':
		for d.PeekKind() != ']' {
			v, err := readNode(d, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		_, err = d.ReadToken()
		return n, err
	case '"':
		n.tok = jsontext.String(tok.String())
	default:
		n.tok = tok.Clone()
	}
	return n, nil
}

func (n *node) write(e *jsontext.Encoder) error {
	switch n.kind {
	case '{':
		if err := e.WriteToken(jsontext.BeginObject); err != nil {
			return err
		}
		for i, name := range n.names {
			if err := e.WriteToken(jsontext.String(name)); err != nil {
				return err
			}
			if err := n.members[i].write(e); err != nil {
				return err
			}
		}
		return e.WriteToken(jsontext.EndObject)
	case '[':
		if err := e.WriteToken(jsontext.BeginArray); err != nil {
			return err
		}
		for _, it := range n.items {
			if err := it.write(e); err != nil {
				return err
			}
		}
		return e.WriteToken(jsontext.EndArray)
	}
	return e.WriteToken(n.tok)
}
