package sources

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// headBytes is how much of an over-long line is kept: enough to see which
// SSE field it is.
const headBytes = 64

// keepBytes is the largest line buffer kept between lines; a bigger one
// (from one huge event) is dropped so it does not stay pinned in memory.
const keepBytes = 1 << 20

// lineReader splits input into lines, for JSON Lines and SSE. Lines up to
// the read buffer's size are returned in place; longer ones are gathered up
// to the event limit, and beyond it discarded as they stream past.
type lineReader struct {
	in    *bufio.Reader
	off   int64 // offset of the next line's first byte
	num   int   // number of the last line returned
	long  []byte
	parts [][]byte // a long line's pieces, joined when it ends
	size  int      // their length
}

// line is one line of input.
type line struct {
	text  []byte // without "\n" or "\r\n"; valid until the next call
	start int64  // offset of its first byte
	num   int    // line number, from 1
	over  bool   // longer than the limit: text holds only its first bytes
	ended bool   // ended with a newline (false for a last, partial line)
	owned bool   // text is the caller's to keep: no later call reuses it
}

// next returns the next line, or io.EOF when the input ends, or the I/O
// error that stopped it. Lines longer than limit bytes come back with over
// set and only their head.
func (l *lineReader) next(limit int64) (line, error) {
	l.long, l.parts, l.size = l.long[:0], l.parts[:0], 0
	ln := line{start: l.off, num: l.num + 1}
	var n int64
	for {
		chunk, err := l.in.ReadSlice('\n')
		n += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			l.gather(&ln, chunk, limit)
			continue
		}
		if err != nil && err != io.EOF {
			return line{}, err
		}
		if err == io.EOF && n == 0 {
			return line{}, io.EOF
		}
		l.off += n
		l.num++
		ln.ended = err == nil
		switch {
		case ln.over:
			ln.text = l.long
		case len(l.parts) == 0:
			ln.text = chunk
		default:
			if l.gather(&ln, chunk, limit); ln.over {
				ln.text = l.long
			} else {
				ln.text, ln.owned = l.join()
			}
		}
		ln.text = bytes.TrimSuffix(ln.text, []byte{'\n'})
		ln.text = bytes.TrimSuffix(ln.text, []byte{'\r'})
		if !ln.over && int64(len(ln.text)) > limit {
			ln.over = true
			ln.text = ln.text[:min(len(ln.text), headBytes)]
		}
		return ln, nil
	}
}

// gather adds a piece of a long line, keeping at most limit bytes (plus a
// line end) and only the head once the line is over the limit. The pieces
// are kept apart until the line ends: growing one buffer would copy the
// line again at every doubling, each time in one long copy (see
// internal/piecewise).
func (l *lineReader) gather(ln *line, chunk []byte, limit int64) {
	if ln.over {
		return
	}
	if int64(l.size+len(chunk)) > limit+2 {
		ln.over = true
		for _, p := range append(l.parts, chunk) {
			l.long = append(l.long, p[:min(len(p), headBytes-len(l.long))]...)
		}
		clear(l.parts) // what is skipped is not held
		l.parts, l.size = l.parts[:0], 0
		return
	}
	l.parts = append(l.parts, bytes.Clone(chunk))
	l.size += len(chunk)
}

// join returns the long line's pieces as one, and whether it is the
// caller's to keep: a line bigger than keepBytes is not kept for the next
// one, so it need not be copied again.
func (l *lineReader) join() ([]byte, bool) {
	owned := l.size > keepBytes
	var out []byte
	if !owned {
		out = l.long[:0]
	}
	out = piecewise.Join(out, l.parts, l.size)
	clear(l.parts)
	l.parts = l.parts[:0]
	if !owned {
		l.long = out
	}
	return out, owned
}
