package sources

import (
	"bufio"
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/model"
)

// tornLine is what a session reader makes of a last line without its
// newline, which an agent may still be writing.
type tornLine int

const (
	// tornWaits: the line is not there yet, as a tail waits for it
	// (Claude Code, Gemini CLI).
	tornWaits tornLine = iota
	// tornReadIfWhole: a line that is whole JSON is read; any other waits
	// (Copilot CLI).
	tornReadIfWhole
	// tornIsAProblem: a line that is whole JSON is read; any other is a
	// problem of a file cut short (Codex: a rollout's lines are flushed
	// whole).
	tornIsAProblem
)

// sessionReader reads an agent's own session file (protocol/claude,
// protocol/codex, protocol/copilot, protocol/gemini): each line is
// translated into AG-UI records, handed out one at a time. The records are
// made by the translation, not read from the input, so none is placed. At
// the end, a translator that reads files of its own (a session's
// subagents) hands out what they hold that no line placed.
type sessionReader struct {
	in    *bufio.Reader
	lines lineReader
	limit int64
	tr    lineTranslator
	torn  tornLine
	queue []model.Record
	idled bool
}

func newSessionReader(in *bufio.Reader, at position, limit int64, tr lineTranslator, torn tornLine) *sessionReader {
	return &sessionReader{in: in, lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit, tr: tr, torn: torn}
}

func (s *sessionReader) next() (item, error) {
	for len(s.queue) == 0 {
		ln, err := s.lines.next(s.limit)
		if err == io.EOF && !s.idled {
			s.idled = true
			if id, ok := s.tr.(idler); ok {
				s.queue = id.Idle()
			}
			continue
		}
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, s.limit, lineAt(ln.num))}, nil
		}
		text := bytes.TrimSpace(ln.text)
		if len(text) == 0 {
			continue
		}
		if !ln.ended {
			switch {
			case s.torn == tornWaits:
				continue
			case validJSON(text):
			case s.torn == tornIsAProblem:
				return item{bad: truncated(ln.start, int64(len(text)), lineAt(ln.num))}, nil
			default:
				continue
			}
		}
		s.queue = s.tr.Line(text)
	}
	rec := s.queue[0]
	s.queue[0] = model.Record{}
	s.queue = s.queue[1:]
	return item{raw: rec.Raw, made: &rec}, nil
}

// buffered reports whether the next record is at hand: translated already,
// or its line read ahead.
func (s *sessionReader) buffered() bool {
	if len(s.queue) > 0 {
		return true
	}
	n := s.in.Buffered()
	if n == 0 {
		return false
	}
	ahead, _ := s.in.Peek(n)
	return bytes.IndexByte(ahead, '\n') >= 0
}
