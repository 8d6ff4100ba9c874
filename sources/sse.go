package sources

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// sseReader reads text/event-stream the way the AG-UI client does: frames
// end at a blank line; a frame's data: lines, each without one leading
// space, joined with "\n", are its event; other fields and comments are
// ignored, and a frame without data is skipped. A bad frame is reported and
// reading goes on with the next.
type sseReader struct {
	lines lineReader
	limit int64
	data  []byte // the current frame's data so far; reused across frames
	frame sseFrame
	// cut, when set, is how an input that stops inside a frame ends,
	// instead of with that frame: a live stream must end between frames.
	cut error
	// open says a field of the current frame was read; partial that the
	// last line had no line end.
	open, partial bool
}

// sseFrame is what is known about the frame being read.
type sseFrame struct {
	dataLines int
	over      bool  // the data passed the limit and is being skipped
	start     int64 // offset of the first data line
	num       int   // its line number
	dataAt    int64 // offset of the first data line's value, after "data:" and its space
}

var dataField = []byte("data:")

func newSSEReader(in *bufio.Reader, at position, limit int64) *sseReader {
	return &sseReader{lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit}
}

func (s *sseReader) next() (item, error) {
	for {
		// Room for the field name: the limit is on the event, not the line.
		ln, err := s.lines.next(s.limit + int64(len(dataField)) + 1)
		if err == io.EOF && s.cut != nil && (s.open || s.partial) {
			return item{}, s.cut
		}
		if err != nil {
			// A last frame without its blank line still counts.
			if it, ok := s.flush(false); ok {
				return it, nil
			}
			return item{}, err
		}
		s.partial = !ln.ended
		if len(ln.text) == 0 && !ln.over {
			s.open = false
			if it, ok := s.flush(true); ok {
				return it, nil
			}
			continue
		}
		if len(ln.text) == 0 || ln.text[0] != ':' { // a comment is not part of a frame
			s.open = true
		}
		if bytes.HasPrefix(ln.text, dataField) {
			s.add(ln)
		}
	}
}

// add appends one data line to the frame.
func (s *sseReader) add(ln line) {
	f := &s.frame
	if f.dataLines == 0 {
		*f = sseFrame{start: ln.start, num: ln.num}
		s.data = s.data[:0]
	}
	f.dataLines++
	if f.over {
		return
	}
	v := ln.text[len(dataField):]
	if len(v) > 0 && v[0] == ' ' {
		v = v[1:]
	}
	if f.dataLines == 1 {
		f.dataAt = ln.start + int64(len(ln.text)-len(v))
	}
	if f.dataLines > 1 {
		s.data = piecewise.Append(s.data, []byte{'\n'})
	}
	if ln.over || int64(len(s.data)+len(v)) > s.limit {
		f.over = true
		s.data = s.data[:0]
		return
	}
	if f.dataLines == 1 && ln.owned {
		s.data = v // a huge line is the reader's to keep: no copy
		return
	}
	s.data = piecewise.Append(s.data, v)
}

// flush ends the current frame and returns its event, if it had data.
// ended is false when the input stopped before the frame's blank line.
func (s *sseReader) flush(ended bool) (item, bool) {
	f := s.frame
	s.frame = sseFrame{}
	// A big buffer is not kept for the next frame, so the event may keep it.
	owned := cap(s.data) > keepBytes
	if owned {
		defer func() { s.data = nil }()
	}
	if f.dataLines == 0 {
		return item{}, false
	}
	if f.over {
		return item{bad: tooBig(f.start, s.limit, lineAt(f.num))}, true
	}
	text := bytes.Trim(s.data, " \t\r\n")
	if len(text) == 0 {
		return item{}, false
	}
	sp := span{at: f.start, num: f.num, col: -1, rawAt: -1, owned: owned}
	if f.dataLines == 1 {
		// One data line: the event is a span of it, after the space trimmed.
		sp.rawAt = f.dataAt + int64(len(s.data)-len(bytes.TrimLeft(s.data, " \t\r\n")))
	}
	if !ended {
		sp.unread = s.lines.off - f.start
	}
	return value(text, sp), true
}
