package sanitize

import (
	"bufio"
	"bytes"
	"io"
)

// JSONWriter buffers JSON text on its way out (to a terminal, a pipe or a
// file someone will print) and writes as \u escapes the characters a JSON
// encoder leaves raw but a terminal or a reader must not meet raw: the C1
// controls U+0080–U+009F (U+009B is an 8-bit CSI, U+009D starts an OSC),
// the bidirectional marks, embeddings, overrides and isolates U+200E,
// U+200F, U+202A–U+202E and U+2066–U+2069 (text that reads other than it
// is), and the separators U+2028 and U+2029. In JSON text these can only
// stand inside strings, where an escape decodes to the same character: the
// output decodes to exactly the values written.
//
// It looks only for the two lead bytes these characters share (0xC2 and
// 0xE2) with bytes.IndexByte, so text without them is copied at memory
// speed. Call Flush at the end.
type JSONWriter struct {
	w    *bufio.Writer
	held [2]byte // the start of a sequence that the next Write completes
	n    int     // bytes in held
}

// NewJSONWriter returns a JSONWriter with a buffer of size bytes on w.
func NewJSONWriter(w io.Writer, size int) *JSONWriter {
	return &JSONWriter{w: bufio.NewWriterSize(w, size)}
}

// Write writes JSON text p, escaped; a sequence cut at the end of p is
// held until the next Write or Flush.
func (j *JSONWriter) Write(p []byte) (int, error) {
	n := len(p)
	for j.n > 0 && len(p) > 0 {
		// Complete the held bytes with as many of p as a sequence needs.
		k := min(len(p), 3-j.n)
		var tmp [4]byte
		t := append(append(tmp[:0], j.held[:j.n]...), p[:k]...)
		p = p[k:]
		j.hold(j.scan(t))
	}
	if len(p) > 0 {
		j.hold(j.scan(p))
	}
	// A bufio.Writer keeps its first error and returns it from any Write.
	if _, err := j.w.Write(nil); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes what is held and buffered.
func (j *JSONWriter) Flush() error {
	if j.n > 0 {
		_, _ = j.w.Write(j.held[:j.n])
		j.n = 0
	}
	return j.w.Flush()
}

func (j *JSONWriter) hold(rest []byte) { j.n = copy(j.held[:], rest) }

// scan writes p, escaped, except a last sequence p ends in the middle of,
// which it returns.
func (j *JSONWriter) scan(p []byte) (rest []byte) {
	// c2 and e2 are where the next 0xC2 and 0xE2 are, len(p) for none.
	next := func(b byte, from int) int {
		if k := bytes.IndexByte(p[from:], b); k >= 0 {
			return from + k
		}
		return len(p)
	}
	start, c2, e2 := 0, next(0xC2, 0), next(0xE2, 0)
	var esc [6]byte
	for {
		k := min(c2, e2)
		if k == len(p) {
			break
		}
		var size int
		var r rune
		switch {
		case p[k] == 0xC2 && k+1 == len(p), p[k] == 0xE2 && k+1 == len(p),
			p[k] == 0xE2 && k+2 == len(p) && (p[k+1] == 0x80 || p[k+1] == 0x81):
			j.w.Write(p[start:k])
			return p[k:]
		case p[k] == 0xC2:
			if b := p[k+1]; b >= 0x80 && b <= 0x9F {
				size, r = 2, rune(b)
			}
			c2 = next(0xC2, k+1)
		default:
			if b1 := p[k+1]; (b1 == 0x80 || b1 == 0x81) && k+2 < len(p) {
				r = 0x2000 | rune(b1&0x3F)<<6 | rune(p[k+2]&0x3F)
				if unsafeFormat(r) {
					size = 3
				}
			}
			e2 = next(0xE2, k+1)
		}
		if size == 0 {
			continue
		}
		j.w.Write(p[start:k])
		j.w.Write(escapeOf(&esc, r))
		start = k + size
		if c2 < start {
			c2 = next(0xC2, start)
		}
		if e2 < start {
			e2 = next(0xE2, start)
		}
	}
	j.w.Write(p[start:])
	return nil
}

// unsafeFormat reports whether r, a character of U+2000–U+207F, is one
// JSONWriter escapes.
func unsafeFormat(r rune) bool {
	return r == 0x200E || r == 0x200F || r == 0x2028 || r == 0x2029 ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// escapeOf writes r as a JSON \u escape into e and returns it.
func escapeOf(e *[6]byte, r rune) []byte {
	const hex = "0123456789abcdef"
	*e = [6]byte{'\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF]}
	return e[:]
}
