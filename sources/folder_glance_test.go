package sources

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// countingReader counts the bytes read through it and the reads; it seeks
// when the reader under it does.
type countingReader struct {
	r            io.Reader
	bytes, reads int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.bytes += n
	c.reads++
	return n, err
}

type seekingCounter struct {
	*countingReader
	s io.Seeker
}

func (s seekingCounter) Seek(off int64, whence int) (int64, error) { return s.s.Seek(off, whence) }

// numbered is n lines of about width bytes each, numbered from 0.
func numbered(n, width int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%06d %s\n", i, strings.Repeat("x", width-8))
	}
	return b.Bytes()
}

// A glance reads a small file whole, in one read; of a big one its head
// and tail windows, each byte once and the tail's cut first line left
// out, whether the file seeks or is read through.
func TestGlanceWindows(t *testing.T) {
	small := numbered(100, 1000) // 100 KB: within both windows
	c := &countingReader{r: bytes.NewReader(small)}
	w := getGlanceWindow()
	if err := w.read(seekingCounter{c, bytes.NewReader(nil)}, int64(len(small))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.head, small) || len(w.tail) != 0 || c.bytes != len(small) || c.reads != 1 {
		t.Errorf("small file: head %d bytes, tail %d, read %d bytes in %d reads", len(w.head), len(w.tail), c.bytes, c.reads)
	}
	w.put()

	big := numbered(1000, 1000) // 1 MB
	for _, seeks := range []bool{true, false} {
		br := bytes.NewReader(big)
		c := &countingReader{r: br}
		var r io.Reader = c
		if seeks {
			r = seekingCounter{c, br}
		}
		w := getGlanceWindow()
		if err := w.read(r, int64(len(big))); err != nil {
			t.Fatal(err)
		}
		wantHead := big[:bytes.LastIndexByte(big[:GlanceHeadBytes], '\n')+1]
		window := big[len(big)-GlanceTailBytes:]
		wantTail := window[bytes.IndexByte(window, '\n')+1:]
		if !bytes.Equal(w.head, wantHead) || !bytes.Equal(w.tail, wantTail) {
			t.Errorf("seeks %v: head %d bytes (want %d), tail %d (want %d)", seeks, len(w.head), len(wantHead), len(w.tail), len(wantTail))
		}
		if seeks && c.bytes != GlanceHeadBytes+GlanceTailBytes {
			t.Errorf("read %d bytes, want the two windows' %d", c.bytes, GlanceHeadBytes+GlanceTailBytes)
		}
		w.put()
	}
}

// A tail window that holds no whole line (a last line longer than it) is
// read further back, the bytes before it only, until it holds the line;
// widen goes back further still, up to the head's end.
func TestGlanceWidens(t *testing.T) {
	data := append(numbered(200, 1000), numbered(1, 3*GlanceTailBytes)...)
	br := bytes.NewReader(data)
	c := &countingReader{r: br}
	w := getGlanceWindow()
	defer w.put()
	if err := w.read(seekingCounter{c, br}, int64(len(data))); err != nil {
		t.Fatal(err)
	}
	last := numbered(1, 3*GlanceTailBytes)
	if !bytes.HasSuffix(w.tail, last) || len(w.tail) >= 4*GlanceTailBytes {
		t.Fatalf("tail of %d bytes; want the last line whole (%d bytes) within four windows", len(w.tail), len(last))
	}
	if c.bytes != GlanceHeadBytes+4*GlanceTailBytes {
		t.Errorf("read %d bytes, want %d: each once", c.bytes, GlanceHeadBytes+4*GlanceTailBytes)
	}
	more, err := w.widen(seekingCounter{c, br})
	if err != nil || !more {
		t.Fatalf("widen: %v %v", more, err)
	}
	if got := append(append([]byte(nil), w.head...), w.tail...); !bytes.Equal(got, data) {
		t.Errorf("widened to the head's end, head and tail are %d bytes of the file's %d", len(got), len(data))
	}
	if more, _ := w.widen(seekingCounter{c, br}); more {
		t.Error("widen went on past the head")
	}
}
