package sources

// This file is the tail's part in reading an agent's own session file (a
// Claude Code session, a Codex rollout, a Copilot CLI or Gemini CLI
// session): its lines become AG-UI records through one translator per
// file.

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// lineTranslator turns the complete lines of a session file, one at a
// time and in order, into the records they make (protocol/claude,
// protocol/codex, protocol/copilot, protocol/gemini).
type lineTranslator interface {
	Line(b []byte) []model.Record
}

// idler is a lineTranslator that also reads files of its own (a Claude
// Code session's subagents, a Codex rollout's): Idle hands out what they hold since, each
// time the session was read to its end.
type idler interface {
	Idle() []model.Record
}

// translatorFor is the translator for the file at path whose first
// complete line is first, nil when the file is no session file of an
// agent's own. limit is the largest line read.
func translatorFor(first []byte, path string, limit int64) lineTranslator {
	switch {
	case LooksLikeClaudeSession(first):
		return newClaudeSession(path, limit)
	case LooksLikeCodexRollout(first):
		return newCodexSession(path, limit)
	case LooksLikeCopilotSession(first):
		return copilot.New()
	case LooksLikeGeminiSession(first):
		return newGeminiSession(path, limit)
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

// translatedIdle hands out, once the file is read to its end, what the
// translator's own files hold since (a Claude Code session's subagents).
func (t *tailer) translatedIdle() {
	id, ok := t.translator.(idler)
	if !ok {
		return
	}
	for _, rec := range id.Idle() {
		t.seq++
		rec.Seq = t.seq
		if rec.At.IsZero() {
			rec.At = t.arrived(t.off)
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
			if tr = translatorFor(text, t.path, t.opts.MaxEventBytes); tr == nil {
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
