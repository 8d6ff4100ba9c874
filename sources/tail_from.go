package sources

// This file is a tail's start in the middle of a file: where an earlier
// run left off, for a later one that restored what it folded.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// TailStart is where a tail takes up a file an earlier tail read: a later
// run that restores what it folded of a big log goes on reading after it
// instead of reading the log again. TailStartAt makes one.
type TailStart struct {
	Offset int64  // the file's bytes [0, Offset) were read and folded before; reading goes on from Offset
	Seq    uint64 // the records before Offset were numbered up to Seq; the next is Seq+1
	Head   []byte // the file's first bytes as they were then (as many as the tail keeps to tell a rewrite, tailHeadBytes)
	Mark   []byte // the bytes just before Offset as they were then (tailMarkBytes of them, fewer near the start)
}

// ErrNotAfterRecord is TailStartAt's answer for an offset that is not
// where a tail of the file stops after a record: what was folded up to
// there cannot be taken up.
var ErrNotAfterRecord = errors.New("the offset is not just past a record")

// TailStartAt is the TailStart for going on in path at offset, the End of
// the last batch a reader folded, whose last record was numbered seq: it
// reads the file's head and the bytes before offset (two small reads), for
// the reader to save with what it folded. It fails when the file cannot be
// read there, is shorter than offset, or offset is not where a tail of it
// stops after a record (ErrNotAfterRecord): a line's end in JSON Lines, an
// SSE frame's end, an event's closing brace in an array.
func TailStartAt(path string, offset int64, seq uint64) (TailStart, error) {
	if offset <= 0 {
		return TailStart{}, fmt.Errorf("tail start %s: offset %d is not past a record", path, offset)
	}
	f, err := os.Open(path)
	if err != nil {
		return TailStart{}, fmt.Errorf("tail start %s: %w", path, err)
	}
	defer f.Close()
	s := TailStart{Offset: offset, Seq: seq,
		Head: make([]byte, min(offset, tailHeadBytes)),
		Mark: make([]byte, min(offset, tailMarkBytes))}
	if _, err = f.ReadAt(s.Head, 0); err == nil {
		_, err = f.ReadAt(s.Mark, offset-int64(len(s.Mark)))
	}
	if errors.Is(err, io.EOF) {
		return TailStart{}, fmt.Errorf("tail start %s: the file is shorter than offset %d", path, offset)
	}
	if err != nil {
		return TailStart{}, fmt.Errorf("tail start %s: %w", path, err)
	}
	if _, ok := s.format(); !ok {
		return TailStart{}, fmt.Errorf("tail start %s at %d: %w", path, offset, ErrNotAfterRecord)
	}
	if hasSubagentFolder(path) || hasGeminiSubagents(path, DefaultMaxEventBytes) {
		// A session's subagents' lines are read as they come, not at a
		// place in the session: no later tail could go on from here.
		return TailStart{}, fmt.Errorf("tail start %s at %d: %w", path, offset, ErrNotAfterRecord)
	}
	return s, nil
}

// takeUp sets the tail as if it had read its file up to s.Offset, when the
// file still starts with s.Head and s.Offset is where a tail of it stops
// after a record; it tells whether it did. The mark is looked at by the
// first drain, as every read looks at it: a file that no longer has it
// before s.Offset, now or by then, is read again from its top after a
// restart.
//
// Where a tail stops after a record, the parse state of every format is
// the one it has past the file's head with nothing pending: no line or
// SSE frame begun, and in an array, the '[' behind and no element begun
// (what comes before the next element, white space and a comma, is
// skipped as ever). So the format, which the head tells, is all of that
// state a take-up needs.
func (t *tailer) takeUp(s TailStart) bool {
	format, ok := s.format()
	if !ok || s.Offset > t.size || !t.holds(s.Head, 0) {
		return false
	}
	if format == tailLines {
		// A session file is told from its whole first line, which the
		// head may not hold; its translator's state is read again.
		tr, translated, read := t.translatorUpTo(s.Offset)
		if !read {
			return false
		}
		if translated {
			if cs, ok := tr.(*codexSession); ok && cs.hasChildren() {
				// Nor do a rollout's children's.
				return false
			}
			if _, reads := tr.(idler); reads && hasSubagentFolder(t.path) {
				// Where its subagents' lines went depends on when they
				// were read: the session is read again.
				return false
			}
			if _, ok := tr.(*gemini.Translator); ok && hasGeminiSubagents(t.path, t.opts.MaxEventBytes) {
				// Nor do a Gemini session's subagents'.
				return false
			}
			format, t.translator = tailTranslated, tr
		}
	}
	t.off, t.base = s.Offset, s.Offset
	t.head = append(t.head[:0], s.Head...)
	t.mark = append(t.mark[:0], s.Mark...)
	t.format = format
	t.inArr = format == tailArray
	return true
}

// format is the format of the file s was made of, as its head tells it,
// when s.Offset is where a tail of that format stops after a record (as
// far as the mark shows): ok is false otherwise, and for a start that is
// not whole.
func (s TailStart) format() (tailFormat, bool) {
	if s.Offset <= 0 || len(s.Head) != int(min(s.Offset, tailHeadBytes)) || len(s.Mark) != int(min(s.Offset, tailMarkBytes)) {
		return tailUnknown, false
	}
	format, ok := headFormat(s.Head)
	if !ok {
		return tailUnknown, false
	}
	m := s.Mark
	switch format {
	case tailArray:
		// The tail stops right after an element, before any comma. An
		// event is an object; a point after any other element (which
		// is not an event either) is not taken up, so that fewer places
		// inside an event pass for an element's end.
		ok = m[len(m)-1] == '}'
	case tailSSE:
		// A frame ends with a blank line.
		ok = bytes.HasSuffix(m, []byte("\n\n")) || bytes.HasSuffix(m, []byte("\n\r\n"))
	default:
		ok = m[len(m)-1] == '\n'
	}
	return format, ok
}

// headFormat is the format detect finds for a file that begins with head,
// told from head alone (the first line may be longer): ok is false when
// head is too short to tell.
func headFormat(head []byte) (format tailFormat, ok bool) {
	b := bytes.TrimLeft(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	switch {
	case len(b) == 0:
		return tailUnknown, false
	case b[0] == '[':
		return tailArray, true
	case len(b) < len("retry:") && bytes.IndexByte(b, '\n') < 0:
		return tailUnknown, false // the longest SSE field could still be there
	}
	for _, f := range sseFields {
		if bytes.HasPrefix(b, f) {
			return tailSSE, true
		}
	}
	if LooksLikeACPRecording(b) {
		return tailACP, true
	}
	return tailLines, true
}

// holds tells whether the file has the bytes b at offset at.
func (t *tailer) holds(b []byte, at int64) bool {
	got := make([]byte, len(b))
	n, _ := t.f.ReadAt(got, at)
	return n == len(b) && bytes.Equal(got, b)
}
