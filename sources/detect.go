package sources

import (
	"bufio"
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// position is where a format reader starts: the byte offset in the input
// and the number of lines already passed.
type position struct {
	off   int64
	lines int
}

// skipPreamble consumes a UTF-8 byte order mark and the whitespace after
// it, so every reader starts at the first byte that matters. It returns
// io.EOF when nothing else follows.
func skipPreamble(in *bufio.Reader) (position, error) {
	var pos position
	if b, _ := in.Peek(1); len(b) == 1 && b[0] == 0xEF {
		if b, _ := in.Peek(3); bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
			in.Discard(3)
			pos.off = 3
		}
	}
	for {
		c, err := in.ReadByte()
		if err != nil {
			return pos, err
		}
		switch c {
		case '\n':
			pos.lines++
		case ' ', '\t', '\r':
		default:
			in.UnreadByte()
			return pos, nil
		}
		pos.off++
	}
}

// sseFields are the line starts that mark text/event-stream.
var sseFields = [][]byte{[]byte("data:"), []byte("event:"), []byte("id:"), []byte("retry:"), []byte(":")}

// detect tells the format from the input's first bytes; in starts at the
// first byte after the preamble. It reads no more than it must, so a pipe
// that sends one event and waits is not blocked on.
func detect(in *bufio.Reader) (Format, error) {
	first, err := in.Peek(1)
	if err != nil {
		return FormatAuto, err
	}
	switch first[0] {
	case '[':
		return FormatJSONArray, nil
	case '{':
		return detectObject(in)
	}
	// A field name is at most 6 bytes; stop early at a newline or EOF.
	head := peekUntil(in, func(b []byte) bool { return len(b) >= 6 || bytes.IndexByte(b, '\n') >= 0 })
	for _, f := range sseFields {
		if bytes.HasPrefix(head, f) {
			return FormatSSE, nil
		}
	}
	return FormatJSONL, nil
}

// peekUntil returns the buffered input once enough(buffered) holds, the
// buffer is full or the input ends, reading one chunk at a time.
func peekUntil(in *bufio.Reader, enough func([]byte) bool) []byte {
	for {
		b, _ := in.Peek(in.Buffered())
		if enough(b) || len(b) == in.Size() {
			return b
		}
		if _, err := in.Peek(len(b) + 1); err != nil {
			b, _ = in.Peek(in.Buffered())
			return b
		}
	}
}

// detectObject tells JSON Lines from an {"events":[…]} object and from an
// ACP recording, whose first line says what it is. A first line
// that is a whole object is an event (JSONL) when it has a "type" member or
// no "events" array; a first line that is only the start of a value (a
// pretty-printed object) is the events object. When the first line is
// longer than the read buffer, the top-level member names seen in the
// buffer decide: "events" before any "type" means the events object, else
// JSONL, which degrades better when wrong (every other line is still read).
func detectObject(in *bufio.Reader) (Format, error) {
	head := peekUntil(in, func(b []byte) bool { return bytes.IndexByte(b, '\n') >= 0 })
	line, whole := head, false
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line, whole = head[:i], true
	} else if len(head) < in.Size() {
		whole = true // the input ended
	}
	if LooksLikeCodexRollout(line) {
		return FormatCodexRollout, nil
	}
	if LooksLikeCopilotSession(line) {
		return FormatCopilot, nil
	}
	if LooksLikeGeminiSession(line) {
		return FormatGemini, nil
	}
	m := scanMembers(line)
	if !whole {
		if LooksLikeACPRecording(line) { // a huge first message
			return FormatACPRecording, nil
		}
		if m.eventsFirst {
			return FormatEventsObject, nil
		}
		return FormatJSONL, nil
	}
	if LooksLikeACPRecording(line) {
		return FormatACPRecording, nil
	}
	if LooksLikeClaudeSession(line) {
		return FormatClaude, nil
	}
	err := valueError(line)
	switch {
	case err == nil:
		if m.hasType || !m.eventsArray {
			return FormatJSONL, nil
		}
		return FormatEventsObject, nil
	case cutOff(err):
		return FormatEventsObject, nil
	}
	return FormatJSONL, nil
}

// members is what detectObject learns from an object's top-level names.
type members struct {
	hasType     bool // a "type" member
	eventsArray bool // an "events" member whose value is an array
	eventsFirst bool // "events" came before any "type"
}

// scanMembers reads the top-level member names of the object that starts
// b, as far as b is valid JSON.
func scanMembers(b []byte) members {
	var m members
	d := jsontext.NewDecoder(bytes.NewReader(b), lenient...)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return m
	}
	for {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return m
		}
		switch tok.String() {
		case "type":
			m.hasType = true
		case "events":
			m.eventsFirst = m.eventsFirst || !m.hasType
			m.eventsArray = m.eventsArray || d.PeekKind() == '['
		}
		if d.SkipValue() != nil {
			return m
		}
	}
}
