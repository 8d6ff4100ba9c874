package sources

import (
	"bytes"
	"encoding/binary"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// jsonScan is a JSON checker over one buffer. It accepts a subset of what
// jsontext accepts with the lenient options: anything it is unsure of
// (a surrogate escape, nesting deeper than 64) fails, and the caller then
// takes the slow path, so a failure is never wrong, only slower.
type jsonScan struct {
	b []byte
	i int
}

func (s *jsonScan) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// take consumes c when it comes next.
func (s *jsonScan) take(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *jsonScan) space() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

// member consumes whitespace, the quoted name and the colon, as agui's
// peekType reads the first member.
func (s *jsonScan) member(quoted []byte) bool {
	s.space()
	if !bytes.HasPrefix(s.b[s.i:], quoted) {
		return false
	}
	s.i += len(quoted)
	s.space()
	if !s.take(':') {
		return false
	}
	s.space()
	return true
}

// plainString consumes a non-empty string of printable ASCII without
// escapes and returns its contents: the "type" values agui reads without
// a full parse.
func (s *jsonScan) plainString() ([]byte, bool) {
	if !s.take('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			if s.i == start {
				return nil, false
			}
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// name consumes a member name and returns it; one with an escape fails,
// since it could spell a name that matters.
func (s *jsonScan) name() ([]byte, bool) {
	start := s.i
	if !s.str() {
		return nil, false
	}
	n := s.b[start+1 : s.i-1]
	if bytes.IndexByte(n, '\\') >= 0 {
		return nil, false
	}
	return n, true
}

// integer consumes a number and returns it when agui.SmallInt reads it,
// as agui.Timestamp reads plain integers.
func (s *jsonScan) integer() (int64, bool) {
	start := s.i
	if !s.number() {
		return 0, false
	}
	return agui.SmallInt(s.b[start:s.i])
}

// maxScanDepth is how deep value follows nesting; deeper values fail.
const maxScanDepth = 64

// value consumes one JSON value. Nesting is tracked in a bit stack (1 for
// an object, 0 for an array) rather than by recursion.
func (s *jsonScan) value() bool {
	var stack uint64
	depth := 0
	for {
		// A value is expected here.
		s.space()
		switch c := s.peek(); c {
		case '{', '[':
			if depth == maxScanDepth {
				return false
			}
			s.i++
			depth++
			stack <<= 1
			s.space()
			if c == '{' {
				stack |= 1
				if !s.take('}') {
					if !s.key() {
						return false
					}
					continue
				}
			} else if !s.take(']') {
				continue
			}
			stack >>= 1 // empty: it has ended already
			depth--
		case '"':
			if !s.str() {
				return false
			}
		case 't':
			if !s.word("true") {
				return false
			}
		case 'f':
			if !s.word("false") {
				return false
			}
		case 'n':
			if !s.word("null") {
				return false
			}
		default:
			if !s.number() {
				return false
			}
		}
		// A value has ended: close containers until one goes on.
		for {
			if depth == 0 {
				return true
			}
			s.space()
			inObject := stack&1 == 1
			if s.take(',') {
				if inObject {
					s.space()
					if !s.key() {
						return false
					}
				}
				break
			}
			if (inObject && s.take('}')) || (!inObject && s.take(']')) {
				stack >>= 1
				depth--
				continue
			}
			return false
		}
	}
}

// key consumes a member name and its colon.
func (s *jsonScan) key() bool {
	if !s.str() {
		return false
	}
	s.space()
	return s.take(':')
}

func (s *jsonScan) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// number consumes a number as the JSON grammar writes it.
func (s *jsonScan) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return false
		}
		i = j
	}
	s.i = i
	return true
}

// digits returns the end of the run of digits at b[i:].
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// Bytes repeated in every lane of a word, for the string scan below.
const (
	lanes1    = 0x0101010101010101
	lanesHigh = 0x8080808080808080
)

// str consumes a string. Most of an event's bytes are string contents, so
// it looks at eight bytes at a time for a quote, a backslash or a control
// byte (the classic has-zero-byte tests); that makes the whole scan run at
// several GB/s on generated logs. Bytes of 0x80 and above are taken as
// they are: jsontext's lenient mode accepts invalid UTF-8.
func (s *jsonScan) str() bool {
	if !s.take('"') {
		return false
	}
	b, i := s.b, s.i
	for {
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (lanes1 * '"')
			bs := w ^ (lanes1 * '\\')
			if ((q-lanes1)&^q|(bs-lanes1)&^bs|(w-lanes1*0x20)&^w)&lanesHigh != 0 {
				break
			}
			i += 8
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c == '\\':
			n := escape(b[i+1:])
			if n == 0 {
				return false
			}
			i += 1 + n
		case c < 0x20:
			return false
		default:
			i++
		}
	}
}

// escape returns the length of the escape after a backslash at the start of
// b, or 0 when it is not one jsontext surely accepts.
func escape(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 1
	case 'u':
		if len(b) < 5 {
			return 0
		}
		var r rune
		for _, c := range b[1:5] {
			switch {
			case c >= '0' && c <= '9':
				r = r<<4 | rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r<<4 | rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r<<4 | rune(c-'A'+10)
			default:
				return 0
			}
		}
		if r >= 0xD800 && r <= 0xDFFF {
			return 0 // surrogates: leave the pairing rules to jsontext
		}
		return 5
	}
	return 0
}
