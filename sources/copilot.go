package sources

import (
	"bufio"
	"bytes"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// LooksLikeCopilotSession tells from a file's first line that it is a
// GitHub Copilot CLI session file (session-state/<id>/events.jsonl): an
// object whose "type" is "session.start" beside a member of the envelope
// every Copilot event has ("data", "id", "timestamp", "parentId"). AG-UI's
// types are upper case, so no AG-UI event is taken for one. The line may
// be cut short: the members before the cut decide.
func LooksLikeCopilotSession(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	start, envelope := false, false
	for !(start && envelope) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "type":
			v, err := d.ReadToken()
			if err != nil || v.Kind() != '"' || v.String() != "session.start" {
				return false
			}
			start = true
			continue
		case "data", "id", "timestamp", "parentId":
			if envelope = true; start {
				return true // what follows may be cut short
			}
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

// copilotReader reads a Copilot CLI session file: each line is translated
// into AG-UI records (protocol/copilot), handed out one at a time. The
// records are made by the translation, not read from the input, so none is
// placed. A last line cut short is waited for, as a tail waits: it is no
// problem, just not there yet.
type copilotReader struct {
	in    *bufio.Reader
	lines lineReader
	limit int64
	tr    *copilot.Translator
	queue []model.Record
}

func newCopilotReader(in *bufio.Reader, at position, limit int64) *copilotReader {
	return &copilotReader{in: in, lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit, tr: copilot.New()}
}

func (c *copilotReader) next() (item, error) {
	for len(c.queue) == 0 {
		ln, err := c.lines.next(c.limit)
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, c.limit, lineAt(ln.num))}, nil
		}
		text := bytes.TrimSpace(ln.text)
		if len(text) == 0 || (!ln.ended && !validJSON(text)) {
			continue
		}
		c.queue = c.tr.Line(text)
	}
	rec := c.queue[0]
	c.queue[0] = model.Record{}
	c.queue = c.queue[1:]
	return item{raw: rec.Raw, made: &rec}, nil
}

// buffered reports whether the next record is at hand: translated already,
// or its line read ahead.
func (c *copilotReader) buffered() bool {
	if len(c.queue) > 0 {
		return true
	}
	n := c.in.Buffered()
	if n == 0 {
		return false
	}
	ahead, _ := c.in.Peek(n)
	return bytes.IndexByte(ahead, '\n') >= 0
}
