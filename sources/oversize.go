package sources

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// errOverBudget stops the JSON decoder when one array element grows past
// the event limit, before it buffers the whole element.
var errOverBudget = errors.New("event over the size limit")

// feed is the JSON decoder's input: bytes put back after skipping an
// oversize element, then the buffered input. Reads stop with errOverBudget
// once the decoder has taken stopAt bytes (0: no limit).
type feed struct {
	pending []byte
	in      *bufio.Reader
	n       int64 // bytes handed to the decoder since it was last reset
	stopAt  int64
	// err is the last error other than io.EOF handed to the decoder. The
	// decoder sometimes reports one inside a SyntacticError; this tells
	// an I/O error (or errOverBudget) from bad JSON whatever it says.
	err error
}

func (f *feed) Read(p []byte) (int, error) {
	if f.stopAt > 0 {
		if f.n >= f.stopAt {
			f.err = errOverBudget
			return 0, errOverBudget
		}
		if left := f.stopAt - f.n; int64(len(p)) > left {
			p = p[:left]
		}
	}
	var n int
	var err error
	if len(f.pending) > 0 {
		n = copy(p, f.pending)
		f.pending = f.pending[n:]
	} else {
		// The decoder retries empty reads forever, and bufio passes big
		// reads straight through, so a source that keeps returning (0, nil)
		// is stopped here as bufio would stop it.
		for tries := 0; n == 0 && err == nil && len(p) > 0; tries++ {
			if tries == 100 {
				err = io.ErrNoProgress
				break
			}
			n, err = f.in.Read(p)
		}
	}
	f.n += int64(n)
	if err != nil && err != io.EOF {
		f.err = err
	}
	return n, err
}

// peekByte returns the next byte without consuming it.
func (f *feed) peekByte() (byte, error) {
	b, err := f.chunk()
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// readByte consumes the next byte.
func (f *feed) readByte() {
	f.consume(1)
}

// chunk returns the bytes ready to read, without consuming them: the
// pending bytes, else the read buffer, filled when empty.
func (f *feed) chunk() ([]byte, error) {
	if len(f.pending) > 0 {
		return f.pending, nil
	}
	if f.in.Buffered() == 0 {
		if _, err := f.in.Peek(1); err != nil {
			return nil, err
		}
	}
	return f.in.Peek(f.in.Buffered())
}

// consume drops the first n bytes of the last chunk.
func (f *feed) consume(n int) {
	if len(f.pending) > 0 {
		f.pending = f.pending[n:]
		return
	}
	f.in.Discard(n)
}

// oversize takes over from the decoder when an element passed the budget:
// it scans the element by hand, keeping its bytes only while they fit the
// limit, then restarts the decoder on the rest of the array. An element
// that turns out to fit (the budget has slack for read-ahead, so this is
// rare) is returned as usual.
func (a *arrayReader) oversize() (item, error) {
	f := &a.feed
	f.pending = append(bytes.Clone(a.dec.UnreadBuffer()), f.pending...)
	f.stopAt, f.err = 0, nil
	pos := a.base + a.dec.InputOffset()

	// The separator before the element.
	for comma := false; ; {
		c, err := f.peekByte()
		if err != nil {
			return a.skipEnd(err, pos, 0)
		}
		if c == ']' || !isSpace(c) && (c != ',' || comma) {
			break
		}
		comma = comma || c == ','
		f.readByte()
		pos++
	}
	if c, _ := f.peekByte(); c == ']' {
		a.restart(pos)
		return a.element()
	}
	start := pos
	var kept []byte
	over := false
	var sc valueScanner
	for done := false; !done; {
		b, err := f.chunk()
		if err != nil {
			return a.skipEnd(err, start, pos-start)
		}
		var n int
		n, done = sc.scan(b)
		if !over && int64(len(kept)+n) > a.limit {
			over, kept = true, nil
		}
		if !over {
			kept = append(kept, b[:n]...)
		}
		f.consume(n)
		pos += int64(n)
	}
	if over {
		a.restart(pos)
		return item{bad: tooBig(start, a.limit, "")}, nil
	}
	if !validJSON(kept) {
		// The hand scan only counts brackets; the decoder says what is wrong.
		a.state = afterArray
		msg, off := describe(valueError(kept))
		return item{bad: unreadable(start, "%s%s at byte %d", eventAt(start), msg, start+off)}, nil
	}
	a.restart(pos)
	if kept[0] != '{' {
		return item{raw: kept, off: start, placed: true, bad: notObject(kept, start, eventAt(start))}, nil
	}
	return item{raw: kept, off: start, placed: true}, nil
}

// skipEnd handles the input ending (or failing) during a hand scan that had
// read n bytes of an element starting at offset at.
func (a *arrayReader) skipEnd(err error, at, n int64) (item, error) {
	a.state = afterArray
	if err != io.EOF {
		return item{}, err
	}
	if n == 0 {
		return item{}, io.EOF // no closing ]: a log still being written
	}
	return item{bad: truncated(at, n, eventAt(at))}, nil
}

// restart points a new decoder at the rest of the array, which starts at
// input offset pos: it reads a '[' put in front, so what follows (more
// elements or the closing ']') parses as the same array. The old decoder
// and the buffer it grew for a big event are dropped.
func (a *arrayReader) restart(pos int64) {
	f := &a.feed
	// Drop the separator so the rest reads as the array's first element.
	for {
		c, err := f.peekByte()
		if err != nil || !isSpace(c) && c != ',' {
			break
		}
		f.readByte()
		pos++
		if c == ',' {
			break
		}
	}
	f.pending = append([]byte{'['}, f.pending...)
	f.n = 0
	a.base = pos - 1
	a.dec = jsontext.NewDecoder(f, lenient...)
	a.dec.ReadToken() // the '[' just put back
}

// isSpace reports JSON whitespace.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// valueScanner finds where a JSON value ends by counting brackets outside
// strings; it does not validate (the decoder does that for values kept).
type valueScanner struct {
	started bool
	scalar  bool // a number or literal: ends before the next delimiter
	depth   int
	inStr   bool
	esc     bool
}

// scan reads on through b and returns how many bytes of it belong to the
// value, and whether the value ended there.
func (s *valueScanner) scan(b []byte) (int, bool) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if s.inStr {
			if s.esc {
				s.esc = false
				continue
			}
			// Strings are most of a big event (images, file contents).
			j := bytes.IndexAny(b[i:], `"\`)
			if j < 0 {
				return len(b), false
			}
			i += j
			if b[i] == '\\' {
				s.esc = true
				continue
			}
			s.inStr = false
			if s.depth == 0 {
				return i + 1, true
			}
			continue
		}
		if !s.started {
			s.started = true
			switch c {
			case '"':
				s.inStr = true
			case '{', '[':
				s.depth = 1
			default:
				s.scalar = true
			}
			continue
		}
		if s.scalar {
			if isSpace(c) || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '"' {
				return i, true
			}
			continue
		}
		switch c {
		case '"':
			s.inStr = true
		case '{', '[':
			s.depth++
		case '}', ']':
			s.depth--
			if s.depth == 0 {
				return i + 1, true
			}
		}
	}
	return len(b), false
}
