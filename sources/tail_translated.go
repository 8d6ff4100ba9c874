package sources

// This file is the tail's part in reading an agent's own session file (a
// Claude Code session, a Codex rollout): its lines become AG-UI records
// through one translator per file.

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/claude"
	"github.com/agentwatch/agentwatch/protocol/codex"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// lineTranslator turns the complete lines of a session file, one at a
// time and in order, into the records they make (protocol/claude,
// protocol/codex).
type lineTranslator interface {
	Line(b []byte) []model.Record
}

// translatorFor is the translator for a file whose first complete line is
// first, nil when the file is no session file of an agent's own.
func translatorFor(first []byte) lineTranslator {
	switch {
	case LooksLikeClaudeSession(first):
		return claude.New()
	case LooksLikeCodexRollout(first):
		return codex.New()
	case LooksLikeGeminiSession(first):
		return gemini.New()
	}
	return nil
}

// translatedLine turns one complete line of a session file into its
// records (none for bookkeeping lines). A record the line gives no time of
// its own (a title) gets its arrival time, as a JSON Lines event without a
// timestamp does.
func (t *tailer) translatedLine(raw []byte, at int64) {
	for _, rec := range t.translator.Line(raw) {
		t.seq++
		rec.Seq = t.seq
		if rec.At.IsZero() {
			rec.At = t.arrived(at)
		}
		t.pending = append(t.pending, rec)
	}
}

// translatorUpTo tells whether the open file is a session file of an
// agent's own and, if so, returns its translator having read the lines
// before offset, as the tail that stopped there had: where a JSON Lines
// tail stops after a record nothing is pending, but a session's translator
// remembers the open run, the calls waiting for their results and the run
// of every line, and that is got back only by reading those lines again. They are translated
// and dropped, never folded, which is the cost a resume point saves.
// ok is false when the file could not be read.
func (t *tailer) translatorUpTo(offset int64) (tr lineTranslator, translated, ok bool) {
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
			if ln.over {
				return nil, false, true
			}
			if tr = translatorFor(text); tr == nil {
				return nil, false, true
			}
		}
		// The tail skips a line over the event limit, and one not ended
		// cannot be before a record's end.
		if ln.over || !ln.ended || int64(len(text)) > t.opts.MaxEventBytes || len(text) == 0 {
			continue
		}
		tr.Line(text)
	}
}
