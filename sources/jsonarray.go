package sources

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// defaultSlack is how far past the event limit the decoder may read before
// the oversize path takes over: room for the separator and read-ahead, so
// an event just under the limit never takes the slow path.
const defaultSlack = 64 << 10

// arrayReader streams a JSON array of events, bare or as the "events"
// member of an object, one element per next. The array need not be closed
// (a log still being written); a cut-off or broken tail ends it with one
// Unreadable record.
type arrayReader struct {
	feed    feed
	dec     *jsontext.Decoder
	base    int64 // input offset of the decoder's offset 0
	limit   int64
	slack   int64
	wrapped bool // the array is the "events" member of an object
	state   arrayState
}

// arrayState is how far an arrayReader has got.
type arrayState int

const (
	beforeArray arrayState = iota
	inArray
	afterArray
)

func newArrayReader(in *bufio.Reader, at position, limit, slack int64, wrapped bool) *arrayReader {
	a := &arrayReader{feed: feed{in: in}, base: at.off, limit: limit, slack: slack, wrapped: wrapped}
	a.dec = jsontext.NewDecoder(&a.feed, lenient...)
	return a
}

func (a *arrayReader) next() (item, error) {
	switch a.state {
	case beforeArray:
		if stop, it, err := a.open(); stop {
			return it, err
		}
		a.state = inArray
		return a.element()
	case inArray:
		return a.element()
	}
	return item{}, io.EOF
}

// buffered reports whether input is read ahead of the next element: in the
// decoder's buffer, in bytes put back, or in the read buffer.
func (a *arrayReader) buffered() bool {
	return len(bytes.TrimLeft(a.dec.UnreadBuffer(), " \t\r\n,")) > 0 || len(a.feed.pending) > 0 || a.feed.in.Buffered() > 0
}

// open reads up to the array's '[', skipping the members before "events"
// in an events object. stop is true when there is no array to read; it and
// err are then what next returns.
func (a *arrayReader) open() (stop bool, it item, err error) {
	tok, err := a.dec.ReadToken()
	if err != nil {
		it, err = a.problem(err)
		return true, it, err
	}
	at := a.base + a.dec.InputOffset() - 1
	want := byte('[')
	if a.wrapped {
		want = '{'
	}
	if byte(tok.Kind()) != want {
		a.state = afterArray
		return true, item{bad: unreadable(at, "byte %d: expected %s, found a JSON %s", at, a.expected(), kindOf(tok.Kind()))}, nil
	}
	if !a.wrapped {
		return false, item{}, nil
	}
	for {
		if a.dec.PeekKind() == '}' {
			a.state = afterArray
			return true, item{bad: unreadable(at, "byte %d: the object has no \"events\" member, so it holds no AG-UI events", at)}, nil
		}
		name, err := a.dec.ReadToken()
		if err != nil {
			it, err = a.problem(err)
			return true, it, err
		}
		if name.String() != "events" {
			if err := a.dec.SkipValue(); err != nil {
				it, err = a.problem(err)
				return true, it, err
			}
			continue
		}
		if k := a.dec.PeekKind(); k != '[' {
			if k == 0 {
				_, err := a.dec.ReadToken()
				it, err = a.problem(err)
				return true, it, err
			}
			a.state = afterArray
			tail := a.dec.UnreadBuffer()
			at := a.base + a.dec.InputOffset() + int64(len(tail)-len(bytes.TrimLeft(tail, " \t\r\n:")))
			return true, item{bad: unreadable(at, "byte %d: the \"events\" member is a JSON %s, not an array", at, kindOf(k))}, nil
		}
		if _, err := a.dec.ReadToken(); err != nil {
			it, err = a.problem(err)
			return true, it, err
		}
		return false, item{}, nil
	}
}

// expected names what the first token should have been.
func (a *arrayReader) expected() string {
	if a.wrapped {
		return `an object with an "events" array`
	}
	return "a JSON array of events"
}

// element reads the next element, or the end of the array.
func (a *arrayReader) element() (item, error) {
	a.feed.stopAt = a.dec.InputOffset() + a.limit + a.slack
	if a.dec.PeekKind() == ']' {
		if _, err := a.dec.ReadToken(); err != nil {
			return a.problem(err)
		}
		return a.close()
	}
	v, err := a.dec.ReadValue()
	if err != nil {
		if a.feed.err == errOverBudget {
			return a.oversize()
		}
		return a.problem(err)
	}
	end := a.base + a.dec.InputOffset()
	at := end - int64(len(v))
	var raw []byte
	if int64(len(v)) <= a.limit {
		raw = piecewise.Clone(v)
	}
	if len(v) > keepBytes {
		// The decoder's buffer grew to hold this event; start a new one
		// rather than keep that much memory for the rest of the log.
		a.feed.pending = append(bytes.Clone(a.dec.UnreadBuffer()), a.feed.pending...)
		a.restart(end)
	}
	if raw == nil {
		return item{bad: tooBig(at, a.limit, "")}, nil
	}
	if raw[0] != '{' {
		return item{raw: raw, off: at, placed: true, bad: notObject(raw, at, eventAt(at))}, nil
	}
	return item{raw: raw, off: at, placed: true}, nil
}

// close ends the array. In an events object the rest of the object is not
// read: it holds no events. After a bare array only whitespace may follow.
func (a *arrayReader) close() (item, error) {
	a.state = afterArray
	if a.wrapped {
		return item{}, io.EOF
	}
	var at int64
	if a.dec.PeekKind() == 0 {
		_, err := a.dec.ReadToken()
		var se *jsontext.SyntacticError
		switch {
		case err == io.EOF:
			return item{}, io.EOF
		case a.feed.err == errOverBudget:
			at = a.base + a.dec.InputOffset()
		case a.feed.err != nil:
			return item{}, a.feed.err
		case errors.As(err, &se):
			at = a.base + se.ByteOffset
		default:
			return item{}, err
		}
	} else {
		tail := a.dec.UnreadBuffer()
		at = a.base + a.dec.InputOffset() + int64(len(tail)-len(bytes.TrimLeft(tail, " \t\r\n")))
	}
	return item{bad: unreadable(at, "byte %d: data after the closing ] of the event array; not read", at)}, nil
}

// problem turns a decoder error into the item that ends the array: a
// cut-off tail, a syntax error, or nothing (io.EOF) when the input simply
// stops after a complete element. I/O errors are returned as they are.
func (a *arrayReader) problem(err error) (item, error) {
	prev := a.state
	a.state = afterArray
	if a.feed.err != nil && a.feed.err != errOverBudget {
		return item{}, a.feed.err
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return item{}, err // io.EOF: nothing but whitespace
	}
	tail := a.dec.UnreadBuffer()
	rest := tail[separator(tail):]
	at := a.base + a.dec.InputOffset() + int64(len(tail)-len(rest))
	if cutOff(se.Err) {
		switch {
		case prev == beforeArray && a.wrapped:
			return item{bad: unreadable(at, `byte %d: input ends before the "events" array`, at)}, nil
		case len(rest) > 0:
			return item{bad: truncated(at, int64(len(rest)), eventAt(at))}, nil
		}
		return item{}, io.EOF // a log still being written: no closing ]
	}
	if prev == inArray && len(rest) > 0 && rest[0] == ']' {
		// A trailing comma before ']': JSON forbids it, but nothing is lost.
		return item{}, io.EOF
	}
	msg, off := describe(err)
	at = min(at, a.base+off) // the separator itself may be what is wrong
	return item{bad: unreadable(at, "%s%s at byte %d", eventAt(at), msg, a.base+off)}, nil
}

// separator returns the length of the whitespace, one comma and whitespace
// that start b: what lies between two array elements.
func separator(b []byte) int {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && b[i] == ',' {
		i++
	}
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// eventAt is the start of a Reason about the event at byte offset at.
func eventAt(at int64) string { return "event at byte " + strconv.FormatInt(at, 10) + ": " }
