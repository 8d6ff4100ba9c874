package sources

import (
	"bufio"
	"bytes"
	"strconv"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// jsonlReader reads JSON Lines: one event per line, blank lines skipped. A
// bad line is reported and reading goes on with the next.
type jsonlReader struct {
	lines lineReader
	limit int64
	// acp reads an ACP recording: each line is kept whole for acpRecord.
	acp bool
}

func newJSONLReader(in *bufio.Reader, at position, limit int64) *jsonlReader {
	return &jsonlReader{lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit}
}

func (j *jsonlReader) next() (item, error) {
	for {
		ln, err := j.lines.next(j.limit)
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, j.limit, lineAt(ln.num)), acp: j.acp}, nil
		}
		lead := len(ln.text) - len(bytes.TrimLeft(ln.text, " \t\r"))
		text := bytes.TrimRight(ln.text[lead:], " \t\r")
		if len(text) == 0 {
			continue
		}
		at := ln.start + int64(lead)
		sp := span{at: at, num: ln.num, col: int64(lead), rawAt: at, owned: ln.owned}
		if !ln.ended {
			sp.unread = int64(len(text))
		}
		if j.acp {
			raw := text
			if !sp.owned {
				raw = piecewise.Clone(text)
			}
			return sp.place(item{raw: raw, at: sp, acp: true}), nil
		}
		return value(text, sp), nil
	}
}

// lineAt is the start of a Reason about line n.
func lineAt(n int) string { return "line " + strconv.Itoa(n) + ": " }

// span says where the bytes given to value are, for its Reasons.
type span struct {
	at     int64 // offset of the first byte
	num    int   // line number
	col    int64 // column of the first byte, from 0; < 0 for none (SSE data)
	unread int64 // > 0 when the input ended inside them: bytes not read
	rawAt  int64 // offset of the first byte; < 0 when they are not one span of the input
	owned  bool  // the bytes are value's to keep: no copy is needed
}

// place records where an item's raw bytes are in the input, when they are
// one span of it.
func (sp span) place(it item) item {
	if sp.rawAt >= 0 {
		it.off, it.placed = sp.rawAt, true
	}
	return it
}

// value turns the bytes of one line or SSE frame into an item: an owned
// copy when they are one JSON object, else the problem. A value that is cut
// short by the end of the input is reported as a cut-off tail rather than
// as bad JSON.
func value(text []byte, sp span) item {
	if text[0] == '{' && sp.unread == 0 {
		// Decoding parses it anyway: check only if it turns out unreadable
		// (saves a full validation pass on every event).
		raw := text
		if !sp.owned {
			// The check reads the owned copy: text is the line buffer,
			// reused before a pipelined decoder gets to this item.
			raw = piecewise.Clone(text)
		}
		return sp.place(item{raw: raw, lazy: true, at: sp})
	}
	return checkedValue(text, sp)
}

// checkedValue is value with the JSON validated first.
func checkedValue(text []byte, sp span) item {
	if validJSON(text) {
		raw := piecewise.Clone(text)
		if raw[0] != '{' {
			return sp.place(item{raw: raw, bad: notObject(raw, sp.at, lineAt(sp.num))})
		}
		return sp.place(item{raw: raw})
	}
	err := valueError(text)
	if sp.unread > 0 && cutOff(err) {
		return item{bad: truncated(sp.at, sp.unread, lineAt(sp.num))}
	}
	msg, off := describe(err)
	if cutOff(err) || sp.col < 0 {
		return item{bad: unreadable(sp.at, "%s%s", lineAt(sp.num), msg)}
	}
	return item{bad: unreadable(sp.at, "%s%s (column %d)", lineAt(sp.num), msg, sp.col+off+1)}
}
