// Package lines cuts the bytes appended to an agent's session file into
// whole lines, for the translators of protocol/codex, protocol/copilot and
// protocol/gemini: the same records come of a file however its bytes were
// cut into writes.
package lines

import (
	"bytes"
	"strconv"

	"github.com/agentwatch/agentwatch/model"
)

// Buffer holds what a Write left of a line not yet ended.
type Buffer struct{ torn []byte }

// Write hands line each whole line in p, after what an earlier Write left
// of a line not yet ended, and keeps the rest for the next Write or
// Flush; it returns the records line made.
func (b *Buffer) Write(p []byte, line func([]byte) []model.Record) []model.Record {
	var out []model.Record
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.torn = append(b.torn, p...)
			break
		}
		ln := p[:i]
		if len(b.torn) > 0 {
			b.torn = append(b.torn, ln...)
			ln = b.torn
		}
		out = append(out, line(ln)...)
		b.torn = b.torn[:0]
		p = p[i+1:]
	}
	return out
}

// Flush hands line what Write left of a last line without its newline.
func (b *Buffer) Flush(line func([]byte) []model.Record) []model.Record {
	if len(bytes.TrimSpace(b.torn)) == 0 {
		b.torn = b.torn[:0]
		return nil
	}
	ln := b.torn
	b.torn = nil
	return line(ln)
}

// Unreadable is the record of line number n of a session file that is not
// one of its lines: not JSON (err), or JSON of another shape (shape says
// what a line is).
func Unreadable(seq uint64, n int, err error, shape string) model.Record {
	why := "not " + shape
	if err != nil {
		why = "not JSON: " + err.Error()
	}
	return model.Record{Seq: seq, Proto: model.ProtoAGUI,
		Event: &model.Unreadable{Reason: "line " + strconv.Itoa(n) + ": " + why, Offset: -1}}
}
