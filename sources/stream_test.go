package sources

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// gatedReader hands out its first part, then blocks until the test opens
// the gate, then hands out the rest. It records how far it was read.
type gatedReader struct {
	first, rest []byte
	gate        chan struct{}
	blocked     chan struct{} // closed when a Read starts waiting on the gate
	waiting     bool
}

func (g *gatedReader) Read(p []byte) (int, error) {
	if len(g.first) > 0 {
		n := copy(p, g.first)
		g.first = g.first[n:]
		return n, nil
	}
	if !g.waiting {
		g.waiting = true
		close(g.blocked)
		<-g.gate
	}
	if len(g.rest) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.rest)
	g.rest = g.rest[n:]
	return n, nil
}

// TestStreamsJSONArray shows a JSON array is read as it arrives: the first
// event comes out while the input is still blocked before its end.
func TestStreamsJSONArray(t *testing.T) {
	for _, tc := range []struct{ name, first, rest string }{
		{"array", `[{"type":"A"},`, `{"type":"B"}]`},
		{"events object", "{\"threadId\":\"t\",\n\"events\":[{\"type\":\"A\"},", `{"type":"B"}]}`},
		{"jsonl", "{\"type\":\"A\"}\n", "{\"type\":\"B\"}\n"},
		{"sse", "data: {\"type\":\"A\"}\n\n", "data: {\"type\":\"B\"}\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &gatedReader{first: []byte(tc.first), rest: []byte(tc.rest),
				gate: make(chan struct{}), blocked: make(chan struct{})}
			r := NewReader(in)
			type result struct {
				raw string
				err error
			}
			got := make(chan result)
			go func() {
				for {
					rec, err := r.Next()
					got <- result{string(rec.Raw), err}
					if err != nil {
						return
					}
				}
			}()
			select {
			case res := <-got:
				if res.err != nil || res.raw != `{"type":"A"}` {
					t.Fatalf("first record = %s, %v", res.raw, res.err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no record while the input waits: the reader wants more than the first event")
			}
			<-in.blocked // the reader is now waiting for the rest
			close(in.gate)
			if res := <-got; res.err != nil || res.raw != `{"type":"B"}` {
				t.Fatalf("second record = %s, %v", res.raw, res.err)
			}
			if res := <-got; !errors.Is(res.err, io.EOF) {
				t.Fatalf("after the last record: %v, want io.EOF", res.err)
			}
		})
	}
}

// TestStreamsStopsAtError shows the first event comes out before an input
// error, and the error is what ends the stream.
func TestStreamsStopsAtError(t *testing.T) {
	boom := errors.New("connection reset")
	r := NewReader(io.MultiReader(strings.NewReader(`[{"type":"A"},{"type":"B"`), &failingReader{err: boom}))
	rec, err := r.Next()
	if err != nil || string(rec.Raw) != `{"type":"A"}` {
		t.Fatalf("first Next = %s, %v", rec.Raw, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("second Next = %v, want %v", err, boom)
	}
}

// emptyReader gives its data, then only empty reads: a broken source.
type emptyReader struct{ data []byte }

func (e *emptyReader) Read(p []byte) (int, error) {
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

// TestNoHangOnEmptyReads checks a source that never ends nor sends ends
// reading with io.ErrNoProgress, even inside an event bigger than the
// read buffer (where reads bypass the buffer).
func TestNoHangOnEmptyReads(t *testing.T) {
	for _, in := range []string{
		`[{"type":"A"},{"type":"B","d":"` + strings.Repeat("x", 3*bufferSize),
		"{\"type\":\"A\"}\n{\"type\":\"B\"",
		"data: {\"type\":\"A\"}\n\ndata: {",
	} {
		r := NewReader(&emptyReader{data: []byte(in)})
		if rec, err := r.Next(); err != nil || string(rec.Raw) != `{"type":"A"}` {
			t.Fatalf("first Next = %s, %v", rec.Raw, err)
		}
		if _, err := r.Next(); !errors.Is(err, io.ErrNoProgress) {
			t.Errorf("%.20q: second Next = %v, want io.ErrNoProgress", in, err)
		}
	}
}
