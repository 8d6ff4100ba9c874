package statedoc

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// absent reports whether the library holds n as nothing: a null read from
// the document (not one given as a value in the patch being applied).
func (n *node) absent() bool { return n.kind == 'n' && !n.fresh }

// equal compares n, a value of the document, with v, an operation's value
// or a part of one, as the library's test operation does, and reports
// whether the library would panic instead of answering:
//
//   - scalars are equal when their JSON text is (1 and 1.0 differ), strings
//     when their values are;
//   - objects when they have the same names with equal values, a null
//     matching only a null;
//   - arrays when they have the same length and equal items, where a null
//     item on either side makes the library panic;
//   - a null given as a value in this patch equals nothing, and makes the
//     library panic against an array.
//
// Where the library's answer depends on the order Go's maps are walked
// in, members are taken in order.
func equal(n, v *node) (eq, panics bool) {
	switch {
	case n.absent() || v.absent():
		return false, true
	case n.kind == 'n': // a fresh null, which the library reads as an empty array
		return false, v.kind == '['
	case n.kind != v.kind && (n.container() || v.container()):
		return false, false
	}
	switch n.kind {
	case '{':
		if n.live() != v.live() {
			return false, false
		}
		for i, x := range n.vals {
			if x == nil {
				continue
			}
			j := v.member(n.names[i])
			if j < 0 {
				return false, false
			}
			y := v.vals[j]
			if x.absent() || y.kind == 'n' {
				if x.absent() != (y.kind == 'n') {
					return false, false
				}
				continue
			}
			if eq, panics := equal(x, y); !eq || panics {
				return eq, panics
			}
		}
		return true, false
	case '[':
		if len(n.vals) != len(v.vals) {
			return false, false
		}
		for i := range n.vals {
			if eq, panics := equal(n.vals[i], v.vals[i]); !eq || panics {
				return eq, panics
			}
		}
		return true, false
	case '"':
		if v.kind != '"' {
			return false, false
		}
		return bytes.Equal(n.raw, v.raw) || unquote(n.raw) == unquote(v.raw), false
	default:
		return bytes.Equal(n.raw, v.raw), false
	}
}

func unquote(raw jsontext.Value) string {
	tok, err := jsontext.NewDecoder(bytes.NewReader(raw)).ReadToken()
	if err != nil {
		return string(raw)
	}
	return tok.String()
}
