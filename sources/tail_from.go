package sources

// This file is a tail's start in the middle of a file: where an earlier
// run left off, for a later one that restored what it folded.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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

// TailStartAt is the TailStart for going on in path at offset, the End of
// the last batch a reader folded, whose last record was numbered seq: it
// reads the file's head and the bytes before offset (two small reads), for
// the reader to save with what it folded. It fails when the file cannot be
// read there, or is shorter than offset.
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
	return s, nil
}

// takeUp sets the tail as if it had read its file up to s.Offset, when the
// file is JSON Lines and still starts with s.Head; it tells whether it did.
// The mark is looked at by the first drain, as every read looks at it: a
// file that no longer has it before s.Offset, now or by then, is read
// again from its top after a restart. Only JSON Lines is taken up (an SSE
// frame's or an array's state at the offset is not in s), and only at a
// line's start: the mark must end with a newline.
func (t *tailer) takeUp(s TailStart) bool {
	if s.Offset <= 0 || s.Offset > t.size ||
		len(s.Head) != int(min(s.Offset, tailHeadBytes)) ||
		len(s.Mark) != int(min(s.Offset, tailMarkBytes)) ||
		s.Mark[len(s.Mark)-1] != '\n' || !linesHead(s.Head) || !t.holds(s.Head, 0) {
		return false
	}
	t.off, t.base = s.Offset, s.Offset
	t.head = append(t.head[:0], s.Head...)
	t.mark = append(t.mark[:0], s.Mark...)
	t.format = tailLines
	if LooksLikeACPRecording(s.Head) {
		t.format = tailACP
	}
	return true
}

// linesHead tells whether head, a file's first bytes, make it JSON Lines
// as detect tells it: after a BOM and white space, no '[' and no SSE field
// at the start of the first line. It says no when head is too short to tell.
func linesHead(head []byte) bool {
	b := bytes.TrimLeft(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	if len(b) == 0 || b[0] == '[' {
		return false
	}
	if len(b) < len("retry:") && bytes.IndexByte(b, '\n') < 0 {
		return false // the longest SSE field could still be there
	}
	for _, f := range sseFields {
		if bytes.HasPrefix(b, f) {
			return false
		}
	}
	return true
}

// holds tells whether the file has the bytes b at offset at.
func (t *tailer) holds(b []byte, at int64) bool {
	got := make([]byte, len(b))
	n, _ := t.f.ReadAt(got, at)
	return n == len(b) && bytes.Equal(got, b)
}
