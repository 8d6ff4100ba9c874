package sources

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// tailChunks lends the 64 KiB read buffer to a drain. A tail is idle nearly
// all the time, so a buffer of its own would be 64 MB for a folder of 1,000
// logs; borrowed, it is one per drain running at that moment.
// BenchmarkFollowFolder: 76 KiB of heap and stack per followed idle file
// with a buffer each, 12 KiB borrowed.
var tailChunks = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// tailKeepBytes is the most buffer capacity a tail keeps between drains;
// a bigger buffer (left by a large file's first read or a large event) is
// given back once what it holds is parsed.
const tailKeepBytes = 64 << 10

// drain reads the current file to its end and parses what is complete.
//
// Parsing waits for the end of what is there, or for the unparsed bytes to
// double, so a large file or a large event is not scanned over and over.
//
// Each read starts tailMarkBytes before the offset, and the file was
// truncated when those bytes are not the ones read last time, or not there:
// the file is then read again from its top, and nothing of the new content
// is taken for the rest of the old. This catches a copytruncate rotation
// whose writer filled the file past the old offset again before the tail
// looked, which the file's size alone cannot tell from an append.
//
// A read that got past the mark looks at the mark again once it is done:
// a truncation and a refill while the read ran would have given it the old
// mark and the new content after it (a race test caught it, under load).
//
// What is left unseen: new content that has, at the same place, the very
// bytes the old had both at the file's start (tailHeadBytes) and just
// before the offset. The lines a writer adds after the tail's last read and
// before the truncation are not seen either: they are gone from the file
// (copytruncate copies them away, or loses them when written after its
// copy).
func (t *tailer) drain() {
	cp := tailChunks.Get().(*[]byte)
	defer tailChunks.Put(cp)
	chunk := *cp
	need := max(2*len(t.buf), 1<<20)
	t.more = false
	for read := 0; ; {
		if read >= tailDrainStep {
			// A big file is read a step at a time, each step's records
			// sent before the next is read: its start is on screen while
			// its end is still being read.
			t.parse(false)
			t.more = true
			return
		}
		k := len(t.mark)
		n, err := t.f.ReadAt(chunk, t.off-int64(k))
		if n < k && err != nil && !errors.Is(err, io.EOF) {
			return // not readable now: looked at again at the next wake
		}
		if n < k || !bytes.Equal(chunk[:k], t.mark) || n > k && !t.stillMarked(chunk[:k]) {
			t.truncated()
			continue
		}
		data := chunk[k:n]
		read += len(data)
		if len(data) > 0 {
			if len(t.head) < tailHeadBytes {
				t.head = append(t.head, data[:min(len(data), tailHeadBytes-len(t.head))]...)
			}
			t.remember(data)
			t.off += int64(len(data))
			t.buf = piecewise.Append(t.buf, data)
			if len(t.buf) >= need {
				t.parse(false)
				need = max(2*len(t.buf), 1<<20)
			}
		}
		if err != nil || len(data) == 0 {
			t.parse(true)
			if t.format == tailTranslated {
				t.translatedIdle()
			}
			t.shrink()
			return
		}
	}
}

// stillMarked reports whether the mark is still in the file, just before
// the offset, after a read that found it there and went on past it. A
// truncation and a refill while that read ran would have given it the old
// mark and new bytes after it, taken for the old file's rest; the file
// then has new bytes where the mark was. (buf is room for the mark.)
func (t *tailer) stillMarked(buf []byte) bool {
	n, _ := t.f.ReadAt(buf, t.off-int64(len(buf)))
	return n == len(buf) && bytes.Equal(buf, t.mark)
}

// remember keeps the last tailMarkBytes of what was read as the mark.
func (t *tailer) remember(data []byte) {
	if len(data) >= tailMarkBytes {
		t.mark = append(t.mark[:0], data[len(data)-tailMarkBytes:]...)
		return
	}
	t.mark = append(t.mark, data...)
	if drop := len(t.mark) - tailMarkBytes; drop > 0 {
		t.mark = append(t.mark[:0], t.mark[drop:]...)
	}
}

// shrink gives back buffers grown far beyond what they hold.
func (t *tailer) shrink() {
	if cap(t.buf) > tailKeepBytes && len(t.buf) <= cap(t.buf)/4 {
		t.buf = append([]byte(nil), t.buf...)
	}
	if cap(t.sse) > tailKeepBytes && len(t.sse) <= cap(t.sse)/4 {
		t.sse = append([]byte(nil), t.sse...)
	}
}

// consume drops n bytes from the front of buf.
func (t *tailer) consume(n int) {
	if n == 0 {
		return
	}
	t.base += int64(n)
	t.buf = piecewise.Shift(t.buf, n)
}
