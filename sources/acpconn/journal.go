package acpconn

import (
	"bytes"
	"io"
	"sync"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// journal keeps every JSON-RPC line that crosses the connection, in the
// order it crossed, as records for the fold and lines of a recording. It
// never blocks the goroutines that read and write the agent's pipes: lines
// wait in memory until the pump hands them on, so a burst of updates can
// neither stall the SDK's reader nor overflow its queue.
type journal struct {
	now func() time.Time

	mu      sync.Mutex
	seq     uint64
	pending []model.Record
	closed  bool
	rec     io.Writer // the recording, or nil
	recErr  error
	wake    chan struct{}
}

func newJournal(now func() time.Time, rec io.Writer) *journal {
	return &journal{now: now, rec: rec, wake: make(chan struct{}, 1)}
}

// add keeps one line (without its line end) that went in direction dir
// and reports whether it is a session update.
func (j *journal) add(dir acp.Direction, line []byte) (update bool) {
	line = bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(line)) == 0 {
		return false
	}
	line = bytes.Clone(line)
	j.mu.Lock()
	// Stamped to the millisecond, in UTC, as the recording keeps it: the
	// live fold and the fold of the recording are then the same.
	at := time.UnixMilli(j.now().UnixMilli()).UTC()
	j.seq++
	ev := acp.DecodeDir(line, dir)
	j.pending = append(j.pending, model.Record{Seq: j.seq, At: at, Proto: model.ProtoACP, Raw: line, Event: ev})
	if j.rec != nil && j.recErr == nil {
		_, j.recErr = j.rec.Write(acp.FormatLine(at, dir, line))
	}
	j.mu.Unlock()
	j.signal()
	return isUpdate(ev, line)
}

func (j *journal) signal() {
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// close says no more lines come.
func (j *journal) close() {
	j.mu.Lock()
	j.closed = true
	j.mu.Unlock()
	j.signal()
}

// take returns the lines waiting and whether the journal is closed.
func (j *journal) take() ([]model.Record, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := j.pending
	j.pending = nil
	return out, j.closed
}

// recordErr is the first error writing the recording hit.
func (j *journal) recordErr() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.recErr
}

// pump hands batches on to out until the journal is closed and drained,
// then closes out.
func (j *journal) pump(out chan<- []model.Record) {
	defer close(out)
	for {
		recs, closed := j.take()
		if len(recs) > 0 {
			out <- recs
		}
		if closed {
			if recs, _ := j.take(); len(recs) > 0 {
				out <- recs
			}
			return
		}
		if len(recs) == 0 {
			<-j.wake
		}
	}
}

// lineSplitter calls emit for every complete line written to it (the
// slice is its own only until emit returns); a last line without an end
// is emitted by flush. With max set, a line that reaches max bytes is not
// kept: tooLong is called once for it, and its bytes are dropped up to its
// end, so that the splitter never holds much more than max.
type lineSplitter struct {
	buf     []byte
	emit    func([]byte)
	max     int
	tooLong func()
	// skipping drops the rest of a line that reached max.
	skipping bool
}

func (s *lineSplitter) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if s.skipping {
			if i < 0 {
				return
			}
			s.skipping, p = false, p[i+1:]
			continue
		}
		if i < 0 {
			s.buf = append(s.buf, p...)
			if s.over() {
				s.skipping = true
			}
			return
		}
		s.buf = append(s.buf, p[:i]...)
		p = p[i+1:]
		if !s.over() {
			s.emit(s.buf)
		}
		s.buf = s.buf[:0]
		if cap(s.buf) > keptLineBuffer {
			s.buf = nil // a long line's buffer is not kept for the short ones after it
		}
	}
}

// keptLineBuffer is the largest buffer a lineSplitter keeps between lines.
const keptLineBuffer = 1 << 20

// over reports whether the line being read reached max; it is then
// dropped, and tooLong called.
func (s *lineSplitter) over() bool {
	if s.max <= 0 || len(s.buf) < s.max {
		return false
	}
	s.buf = nil
	if s.tooLong != nil {
		s.tooLong()
	}
	return true
}

func (s *lineSplitter) flush() {
	if len(s.buf) > 0 {
		s.emit(s.buf)
		s.buf = nil
	}
}

// teeReader passes the agent's output to the SDK and every line of it to
// the journal, holding back while the SDK has too many updates queued.
type teeReader struct {
	r     io.Reader
	split lineSplitter
	gate  *gate
	// ready closes once the connection is set up: the SDK starts reading
	// as it makes the connection, and logs through a logger it reads
	// without a lock, which Start sets just after (an agent that exits
	// at once ended the read while the logger was being set).
	ready <-chan struct{}
}

// maxReadChunk bounds one Read, so that one Read cannot bring more updates
// than the gate leaves room for in the SDK's queue.
const maxReadChunk = 16 << 10

func (t *teeReader) Read(p []byte) (int, error) {
	if t.ready != nil {
		<-t.ready
	}
	t.gate.wait()
	if len(p) > maxReadChunk {
		p = p[:maxReadChunk]
	}
	n, err := t.r.Read(p)
	if n > 0 {
		t.split.feed(p[:n])
	}
	if err != nil {
		t.split.flush()
	}
	return n, err
}

// teeWriter passes the SDK's messages to the agent and every line of them
// to the journal. The SDK writes from several goroutines, one message per
// Write; the lock keeps lines whole.
type teeWriter struct {
	mu    sync.Mutex
	w     io.Writer
	split lineSplitter
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.split.feed(p)
	return t.w.Write(p)
}

// gate keeps the SDK's notification queue (1024 entries; overflowing it
// closes the connection) from filling. The SDK's reader goroutine queues
// each notification faster than its handler goroutine decodes them, so
// even a handler that returns at once loses the connection on a burst of
// 20,000 updates (measured by the fixture agent's tests). The tee counts
// the updates it hands to the SDK and the handler counts those it got;
// while more than maxQueued are in between, the tee stops reading and the
// agent waits on its full pipe.
type gate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	read    int64
	handled int64
	closed  bool
}

// maxQueued is how many updates may wait in the SDK's queue; with at most
// maxReadChunk bytes a Read (≥ 40 bytes an update) this stays far below 1024.
const maxQueued = 256

func newGate() *gate {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) wait() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.read-g.handled <= maxQueued || g.closed {
		return
	}
	// An update the SDK could not decode never reaches the handler: if the
	// count does not move for a while, take the rest as dropped rather
	// than wait for ever.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				g.cond.Broadcast()
			}
		}
	}()
	last, since := g.handled, time.Now()
	for g.read-g.handled > maxQueued && !g.closed {
		g.cond.Wait()
		if g.handled != last {
			last, since = g.handled, time.Now()
		} else if time.Since(since) > stuckAfter {
			g.read = g.handled
		}
	}
}

// stuckAfter is how long the handler may make no progress before the gate
// stops waiting for it.
const stuckAfter = 500 * time.Millisecond

// sent counts an update line handed to the SDK.
func (g *gate) sent() {
	g.mu.Lock()
	g.read++
	g.mu.Unlock()
}

// done counts an update the SDK's handler got.
func (g *gate) done() {
	g.mu.Lock()
	g.handled++
	g.mu.Unlock()
	g.cond.Broadcast()
}

// close opens the gate for good (the connection ended).
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cond.Broadcast()
}

// isUpdate reports whether a line from the agent is a session/update,
// which the SDK queues for its handler.
func isUpdate(ev model.Event, line []byte) bool {
	if _, ok := ev.(acp.Update); ok {
		return true
	}
	// A session/update the decoder found malformed may still be queued.
	return bytes.Contains(line, []byte(`"session/update"`))
}
