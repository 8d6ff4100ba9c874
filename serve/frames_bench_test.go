package serve

// What a viewer receives: the bytes of each frame the server writes to
// the session's channel, while following a live run, stepping with ←/→
// and scrolling. Bubble Tea writes each frame in one Write, as the
// difference from the frame before; these figures show it stays so.
//
//	go test ./serve/ -run '^$' -bench ViewerBytes -benchtime 100x

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// frameCounter counts what a session writes: one Write is one frame.
type frameCounter struct {
	w      io.Writer
	mu     sync.Mutex
	frames int
	bytes  int
	max    int           // the largest write: the whole screen, drawn first
	wrote  chan struct{} // signalled after each frame
}

func (c *frameCounter) Write(p []byte) (int, error) {
	// Counted before it is sent, so that what the viewer has seen is
	// always counted already.
	c.mu.Lock()
	c.max = max(c.max, len(p))
	c.frames++
	c.bytes += len(p)
	c.mu.Unlock()
	n, err := c.w.Write(p)
	select {
	case c.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// read returns the frames and bytes written so far.
func (c *frameCounter) read() (frames, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames, c.bytes
}

// largest is the size of the largest write so far.
func (c *frameCounter) largest() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.max
}

// countingServer serves args with every session's output counted; the
// counter of the next session comes on the returned channel.
func countingServer(b *testing.B, args []string) (*testServer, <-chan *frameCounter) {
	counters := make(chan *frameCounter, 1)
	ts := startServerWith(b, args, ShowOptions{}, Config{}, func(s *Server) {
		s.output = func(w io.Writer) io.Writer {
			c := &frameCounter{w: w, wrote: make(chan struct{}, 1)}
			counters <- c
			return c
		}
	})
	return ts, counters
}

// report states the bytes per frame and frames per action, and for
// comparison what was sent until the screen showed the source (the
// whole screen drawn, and the terminal's questions) and the largest
// frame before the actions began.
func report(b *testing.B, c *frameCounter, opening, whole, frames0, bytes0 int) {
	frames, bytes := c.read()
	frames, bytes = frames-frames0, bytes-bytes0
	if frames > 0 {
		b.ReportMetric(float64(bytes)/float64(frames), "B/frame")
	}
	b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
	b.ReportMetric(float64(whole), "B/whole-screen")
	b.ReportMetric(float64(opening), "B/opening")
	b.ReportMetric(0, "ns/op") // the time is the test's own waiting
}

// BenchmarkViewerBytes measures one viewer at 160×48 of a log that
// internal/testkit/loggen generates (streamed text and reasoning, tool calls of
// every category, some with screenshots).
func BenchmarkViewerBytes(b *testing.B) {
	b.Run("follow", func(b *testing.B) {
		// The log grows a step at a time: each op appends the events up to
		// the next tool call's start, and waits until the screen shows it.
		const before = 20
		chunks := stepChunks(b.N + before)
		path := filepath.Join(b.TempDir(), "run.jsonl")
		appendFile(b, path, bytes.Join(chunks[:before+1], nil))
		ts, counters := countingServer(b, []string{path})
		v := ts.view(b, ts.allowed, 160, 48)
		c := <-counters
		v.waitFor(stepOf(before, before))
		_, opening := c.read()
		settle(c)
		frames0, bytes0 := c.read()
		whole := c.largest()
		b.ResetTimer()
		for i := range b.N {
			appendFile(b, path, chunks[before+1+i])
			v.waitFor(stepOf(before+1+i, before+1+i))
		}
		b.StopTimer()
		report(b, c, opening, whole, frames0, bytes0)
	})
	b.Run("step", func(b *testing.B) {
		// ←/→ across the steps of a finished log, back and forth.
		chunks := stepChunks(60)
		n := len(chunks) - 1
		path := filepath.Join(b.TempDir(), "run.jsonl")
		appendFile(b, path, bytes.Join(chunks, nil))
		ts, counters := countingServer(b, []string{path})
		v := ts.view(b, ts.allowed, 160, 48)
		c := <-counters
		v.waitFor(stepOf(n, n))
		_, opening := c.read()
		settle(c)
		frames0, bytes0 := c.read()
		whole := c.largest()
		b.ResetTimer()
		at, dir := n, -1
		for range b.N {
			if at+dir < 1 || at+dir > n {
				dir = -dir
			}
			at += dir
			if dir < 0 {
				v.send(keyLeft)
			} else {
				v.send(keyRight)
			}
			v.waitFor(stepOf(at, n))
		}
		b.StopTimer()
		report(b, c, opening, whole, frames0, bytes0)
	})
	b.Run("scroll", func(b *testing.B) {
		// ↑/↓ one row at a time through the transcript: 50 up from the
		// newest, 50 down, and again.
		chunks := stepChunks(60)
		n := len(chunks) - 1
		path := filepath.Join(b.TempDir(), "run.jsonl")
		appendFile(b, path, bytes.Join(chunks, nil))
		ts, counters := countingServer(b, []string{path})
		v := ts.view(b, ts.allowed, 160, 48)
		c := <-counters
		v.waitFor(stepOf(n, n))
		_, opening := c.read()
		settle(c)
		frames0, bytes0 := c.read()
		whole := c.largest()
		b.ResetTimer()
		for i := range b.N {
			if i/50%2 == 0 {
				v.send(keyUp)
			} else {
				v.send(keyDown)
			}
			select {
			case <-c.wrote:
			case <-time.After(waitLimit):
				b.Fatalf("no frame after a scroll; the screen shows:\n%s", v.screen())
			}
		}
		b.StopTimer()
		report(b, c, opening, whole, frames0, bytes0)
	})
}

// stepChunks cuts a generated log before each tool call's start: the
// first chunk holds what comes before the first step, chunk k the events
// from step k's start to step k+1's. There are at least steps steps.
func stepChunks(steps int) [][]byte {
	for n := 2000; ; n *= 2 {
		var chunks [][]byte
		var cur []byte
		for _, line := range bytes.SplitAfter(loggen.Generate(n, 1), []byte("\n")) {
			if bytes.Contains(line, []byte(`"type":"TOOL_CALL_START"`)) {
				chunks = append(chunks, cur)
				cur = nil
			}
			cur = append(cur, line...)
		}
		chunks = append(chunks, cur)
		if len(chunks) > steps {
			return chunks[:steps+1]
		}
	}
}

// appendFile adds b to the file at path, in one write.
func appendFile(tb testing.TB, path string, b []byte) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		tb.Fatal(err)
	}
}

// settle waits until the screen has drawn what it had to draw after
// opening (frames stop coming for a moment), and forgets the signal.
func settle(c *frameCounter) {
	for {
		select {
		case <-c.wrote:
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}
