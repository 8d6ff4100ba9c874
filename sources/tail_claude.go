package sources

// This file is the tail's part in reading a Claude Code session: its
// lines become AG-UI records through one claude.Translator per file.

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/protocol/claude"
)

// claudeLine turns one complete line of a Claude Code session into its
// records (none for bookkeeping lines). A record the line gives no time of
// its own (a title) gets its arrival time, as a JSON Lines event without a
// timestamp does.
func (t *tailer) claudeLine(raw []byte, at int64) {
	for _, rec := range t.claude.Line(raw) {
		t.seq++
		rec.Seq = t.seq
		if rec.At.IsZero() {
			rec.At = t.arrived(at)
		}
		t.pending = append(t.pending, rec)
	}
}

// claudeUpTo tells whether the open file is a Claude Code session and, if
// so, returns a Translator that has read its lines before offset, as the
// tail that stopped there had: where a JSON Lines tail stops after a
// record nothing is pending, but a session's translator remembers the open
// run, the calls waiting for their results and the run of every line, and
// that is got back only by reading those lines again. They are translated
// and dropped, never folded, which is the cost a resume point saves.
// ok is false when the file could not be read.
func (t *tailer) claudeUpTo(offset int64) (tr *claude.Translator, isClaude, ok bool) {
	in := bufio.NewReaderSize(io.NewSectionReader(t.f, 0, offset), bufferSize)
	pos, err := skipPreamble(in)
	if err == io.EOF {
		return nil, false, true
	}
	if err != nil {
		return nil, false, false
	}
	lines := lineReader{in: in, off: pos.off, num: pos.lines}
	for {
		ln, err := lines.next(t.opts.MaxEventBytes)
		if err == io.EOF {
			return tr, tr != nil, true
		}
		if err != nil {
			return nil, false, false
		}
		text := bytes.TrimSpace(ln.text)
		if tr == nil {
			// The tail told the format from the first line, as here.
			if ln.over || !LooksLikeClaudeSession(text) {
				return nil, false, true
			}
			tr = claude.New()
		}
		// The tail skips a line over the event limit, and one not ended
		// cannot be before a record's end.
		if ln.over || !ln.ended || int64(len(text)) > t.opts.MaxEventBytes || len(text) == 0 {
			continue
		}
		tr.Line(text)
	}
}
