package sources

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/agui"
	"github.com/agentwatch/agentwatch/model"
)

// TailEvent is a change in the state of a Tail.
type TailEvent int

const (
	// TailWaiting: the file is not there (yet, or any more); Tail waits for
	// it, reading on the file it had open while that still grows (see Tail).
	TailWaiting TailEvent = iota
	// TailFollowing: the file is open and being followed.
	TailFollowing
	// TailTruncated: the file was truncated or rewritten; reading restarted from the top.
	TailTruncated
	// TailRotated: the path now names a new file (rotation, delete + re-create,
	// rename over); the old file was read to its end and the new one opened.
	TailRotated
)

func (e TailEvent) String() string {
	switch e {
	case TailWaiting:
		return "waiting"
	case TailFollowing:
		return "following"
	case TailTruncated:
		return "truncated"
	case TailRotated:
		return "rotated"
	}
	return "unknown"
}

// TailOptions tune Tail.
type TailOptions struct {
	// Poll is the backstop poll interval (network filesystems send no
	// change events); 0 means one second.
	Poll time.Duration
	// MaxEventBytes is the largest event accepted; a larger one becomes an
	// Unreadable record. 0 means DefaultMaxEventBytes.
	MaxEventBytes int64
	// Wake, when set, tells the tail that its file may have changed: Tail
	// then keeps no fsnotify watcher of its own and looks at the file on
	// each receive (and every Poll). It lets one watcher serve many tails,
	// as FollowFolder does; a send should not block (a channel with a
	// buffer of one, sent to with select/default, merges bursts).
	Wake <-chan struct{}
	// From, when set, takes the file up where an earlier tail left it:
	// records are numbered from From.Seq+1, and when the file is JSON
	// Lines and still holds what From says was read, reading goes on at
	// From.Offset. Otherwise the file is read from its top, after a
	// restart (an empty batch with Restart set, and TailTruncated), so a
	// reader drops what it restored. FollowFolder's tails take up nothing.
	From *TailStart
}

// tailNotify turns fsnotify on; tests turn it off to try the poll alone.
var tailNotify = true

// tailBatchEvery is the least time between two batches.
const tailBatchEvery = 16 * time.Millisecond

// tailDrainStep is how much of a file one look at it reads before its
// records so far are sent: the first screen of a 100 MB log comes after
// 1 MiB of it, not after all of it. It also bounds what a fast reader holds
// ahead of a slower fold: the next step is read only once this one is
// taken, so the records in flight are a step or two of the file, decoded
// (4 MiB steps made `tail --plain` hold 110–150 MB where it holds 60).
const tailDrainStep = 1 << 20

// tailHeadBytes is how much of a file's start is remembered to notice a rewrite
// that did not make the file shorter than what was read.
const tailHeadBytes = 256

// tailLetGo is how long a file no longer at the path must not grow before
// the tail lets it go (see letGo). It is longer than any pause a writer
// makes between renaming its log and its last writes to it, and short
// enough that a deleted log's space is soon given back.
const tailLetGo = 5 * time.Second

// tailMarkBytes is how many of the bytes just before the offset every read
// reads again, to notice a truncation that the file outgrew before the tail
// looked (see drain).
const tailMarkBytes = 64

// Tail follows path: it waits for the file, reads what is there, then follows appends
// with fsnotify on the parent folder (or opts.Wake) plus a poll, surviving
// truncation (start over from byte 0 and report TailTruncated), rotation and
// delete+re-create and an editor's write-temp-then-rename (finish the old
// file, reopen by path, report TailRotated),
// holding a partial last line until it is complete.
//
// Rotation by rename loses nothing the writer writes to the old file before
// its first write to the new one: the old file is read to its end once the
// new one at the path has content, and is read on while the path is empty
// or its new file is, until the old file has not grown for 5 s. A
// truncation is found before anything past the old offset is read, also
// when the file has grown past it again (copytruncate): the new content is
// read from its top, never taken for the rest of the old, so nothing is
// read twice; what the writer added after the last read and before the
// truncation is lost, as with copytruncate it must be (drain says what
// stays unseen).
//
// Records are numbered from 1 (from opts.From.Seq+1) across the whole
// tail (Seq never reused, also after a restart) and sent on the returned
// channel in batches (whatever is ready, at most one batch per 16 ms);
// status changes go to the events channel. Cancel ctx to stop; the
// channels close.
//
// The file may be JSON Lines, SSE text or a JSON array still being written
// (an {"events":[…]} object is read as JSON Lines, that is not followed).
func Tail(ctx context.Context, path string, opts TailOptions) (<-chan []model.Record, <-chan TailEvent) {
	out := make(chan []model.Record)
	events := make(chan TailEvent)
	t := newTailer(path, opts)
	same := func(recs []model.Record, _ bool, _ tailProgress) []model.Record { return recs }
	go func() {
		defer close(out)
		defer close(events)
		runTail(ctx, t, out, events, same, func(e TailEvent) TailEvent { return e }, false)
	}()
	return out, events
}

// TailBatches is Tail with its batches as model.Batch (Source the path),
// and a restart said in line: when the file is truncated or replaced, an
// empty batch with Restart set comes between the records of the old
// content and those of the new, so a reader can drop what it showed of
// the old file exactly there.
func TailBatches(ctx context.Context, path string, opts TailOptions) (<-chan model.Batch, <-chan TailEvent) {
	out := make(chan model.Batch)
	events := make(chan TailEvent)
	t := newTailer(path, opts)
	go func() {
		defer close(out)
		defer close(events)
		runTail(ctx, t, out, events,
			func(recs []model.Record, restart bool, p tailProgress) model.Batch {
				return model.Batch{Source: path, Records: recs, Restart: restart, Read: p.read, Size: p.size, End: p.end}
			},
			func(e TailEvent) TailEvent { return e }, true)
	}()
	return out, events
}

// newTailer is a tailer of path with the defaults filled in.
func newTailer(path string, opts TailOptions) *tailer {
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.MaxEventBytes <= 0 {
		opts.MaxEventBytes = DefaultMaxEventBytes
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	t := &tailer{path: path, opts: opts, quiet: tailLetGo}
	if opts.From != nil {
		from := *opts.From
		t.from, t.seq = &from, from.Seq
	}
	return t
}

type tailFormat int

const (
	tailUnknown tailFormat = iota
	tailLines              // JSON Lines
	tailSSE
	tailArray
)

type tailer struct {
	path string
	opts TailOptions

	f    *os.File
	off  int64  // bytes of f read so far
	head []byte // the first bytes of f, as read
	// mark is the last bytes read, those just before off: a read starts
	// with them again, and finds the file truncated when they differ.
	mark    []byte
	waiting bool // TailWaiting was reported and the file is still missing
	gone    bool // a file was followed and went away: the next one is a rotation
	// detached: f is no longer the file at the path, and is read on until
	// letGo; idleOff and idleSince say where it was and since when.
	detached  bool
	idleOff   int64
	idleSince time.Time
	// quiet is how long a detached file must not grow to be let go
	// (tailLetGo; tests shorten it).
	quiet time.Duration

	// parse state for the current file
	buf    []byte // bytes read but not consumed; buf[0] is at file offset base
	base   int64
	format tailFormat
	inArr  bool // the array's '[' was consumed
	arrEnd bool // the array's ']' was seen, or it is broken: nothing more is read
	sse    []byte
	sseN   int // data lines in the current SSE frame
	skip   bool

	// more says the last drain stopped at tailDrainStep with the file not
	// read to its end.
	more bool
	// size is the file's size when last looked at (for progress).
	size int64

	seq     uint64
	pending []model.Record
	// end is the offset just past the last record made (0 when its end
	// is not read yet): the End of a batch that ends with it.
	end int64
	// from is where the first file opened is taken up (opts.From), until
	// it is opened.
	from *TailStart
	// ready are batches cut off by a restart, to send before pending: the
	// records read before it, then an empty batch that marks the restart.
	ready []tailBatch
	evq   []TailEvent
}

// tailProgress is how far a tail has read its file: bytes read, the
// file's size when last looked at, and the offset just past the batch's
// last record (0 when not known).
type tailProgress struct{ read, size, end int64 }

func (t *tailer) progress() tailProgress {
	return tailProgress{read: t.off, size: max(t.size, t.off)}
}

// tailBatch is a batch to send, and whether the file started over before
// it (a truncation or a replacement: what was sent before is gone).
type tailBatch struct {
	recs    []model.Record
	restart bool
	end     int64 // the offset just past the last of recs (tailer.end)
}

// startOver cuts the batch at a restart of the file: what was read before
// goes first, then the restart, then what the new content brings.
func (t *tailer) startOver() {
	if len(t.pending) > 0 {
		t.ready = append(t.ready, tailBatch{recs: t.pending, end: t.end})
		t.pending = nil
	}
	t.ready = append(t.ready, tailBatch{restart: true})
}

// runTail follows t's file until ctx is done, sending batches on out and
// status changes on events, each made into what the caller sends (a Tail
// sends them as they are, a folder says which file they come from). It
// closes neither channel: a folder's tails share theirs.
func runTail[B, E any](ctx context.Context, t *tailer, out chan<- B, events chan<- E, batch func([]model.Record, bool, tailProgress) B, event func(TailEvent) E, restarts bool) {
	defer func() {
		if t.f != nil {
			t.f.Close()
		}
	}()

	var notify <-chan fsnotify.Event
	var werrs <-chan error
	wake := t.opts.Wake
	if wake == nil && tailNotify {
		if w, err := fsnotify.NewWatcher(); err == nil {
			defer w.Close()
			if w.Add(filepath.Dir(t.path)) == nil {
				notify, werrs = w.Events, w.Errors
			}
		}
	}
	poll := time.NewTicker(t.opts.Poll)
	defer poll.Stop()
	flush := time.NewTimer(0)
	<-flush.C
	flushArmed := false
	var last time.Time

	t.check()
	for {
		if t.more && len(t.pending) == 0 && len(t.ready) == 0 && t.f != nil {
			t.drain()
			if !t.more {
				// At the end of the file: a replacement or a deletion
				// seen meanwhile is acted on now.
				t.check()
			}
		}
		var sendOut chan<- B
		var b B
		var sendEv chan<- E
		var ev E
		if !restarts {
			// A reader that is not told of restarts gets no marker batches.
			t.ready = slices.DeleteFunc(t.ready, func(x tailBatch) bool { return len(x.recs) == 0 })
		}
		fromReady := len(t.ready) > 0
		switch {
		case fromReady && (t.ready[0].restart && len(t.ready[0].recs) == 0):
			// A restart goes at once: the old content must leave the screen.
			sendOut, b = out, batch(nil, true, t.progress())
		case fromReady || len(t.pending) > 0:
			if wait := tailBatchEvery - time.Since(last); wait <= 0 {
				p := t.progress()
				if fromReady {
					p.end = t.ready[0].end
					sendOut, b = out, batch(t.ready[0].recs, t.ready[0].restart, p)
				} else {
					p.end = t.end
					sendOut, b = out, batch(t.pending, false, p)
				}
			} else if !flushArmed {
				flush.Reset(wait)
				flushArmed = true
			}
		}
		if len(t.evq) > 0 {
			sendEv, ev = events, event(t.evq[0])
		}
		// A big file's next step is read at once when this one brought no
		// whole record (a single event of many megabytes), not at the next
		// poll.
		var again <-chan struct{}
		if t.more && sendOut == nil && len(t.pending) == 0 && len(t.ready) == 0 && t.f != nil {
			again = tailNow
		}
		select {
		case <-ctx.Done():
			return
		case <-again:
		case sendOut <- b:
			if fromReady {
				t.ready = t.ready[1:]
			} else {
				t.pending = nil
			}
			last = time.Now()
		case sendEv <- ev:
			t.evq = t.evq[1:]
		case <-flush.C:
			flushArmed = false
		case _, ok := <-wake:
			if !ok {
				wake = nil
				continue
			}
			t.check()
		case e, ok := <-notify:
			if !ok {
				notify = nil
				continue
			}
			if filepath.Clean(e.Name) == t.path {
				t.check()
			}
		case _, ok := <-werrs:
			if !ok {
				werrs = nil
			}
		case <-poll.C:
			t.check()
		}
	}
}

func (t *tailer) event(e TailEvent) { t.evq = append(t.evq, e) }

// tailNow is a channel that is always ready: a select case on it does not
// wait.
var tailNow = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// check brings the tail up to date with the file system.
//
// The path is looked up before the open file is read: what the lookup
// finds happened before that read, so when the new file at the path has
// content, a writer that moved to it had written its last to the old file
// already, and the old file read to its end has all of it.
func (t *tailer) check() {
	if t.f == nil {
		t.open(false)
		return
	}
	named, err := os.Stat(t.path)
	if t.rewritten() {
		t.truncated()
	}
	if !t.more {
		// In a read in steps the loop reads the next step once this one's
		// records are sent; reading on here would read the whole file
		// before the first of them goes, when looks come faster than the
		// steps are parsed (a slow machine, a busy folder).
		t.drain()
	}
	cur, serr := t.f.Stat()
	if serr == nil {
		t.size = cur.Size()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !t.waiting {
			t.waiting, t.gone = true, true
			t.event(TailWaiting)
		}
		if t.letGo() {
			t.finish()
		}
	case err != nil || serr != nil:
	case !os.SameFile(cur, named):
		// The new file is taken once it has content (the writer is on it)
		// or the old one has gone quiet, and never before the old one is
		// read to its end (a big file is read in steps).
		if !t.more && (named.Size() > 0 || t.letGo()) {
			t.finish()
			t.open(true)
		}
	default:
		t.detached = false
		if t.waiting { // the old file is at the path again
			t.waiting, t.gone = false, false
			t.event(TailFollowing)
		}
	}
}

// letGo tells whether the open file, which is no longer the one at the
// path, may be closed: whether it has not grown for tailLetGo. Until then
// it is read on, since its writer may still hold it: a rotation renames the
// log (and may make an empty new one), and the writer writes its last lines
// to the old file before it moves to the new. A deleted log is let go too,
// so that its space is not held for as long as the tail runs.
func (t *tailer) letGo() bool {
	now := time.Now()
	if !t.detached || t.off != t.idleOff || t.more {
		t.detached = true
		t.idleOff, t.idleSince = t.off, now
		return false
	}
	return now.Sub(t.idleSince) >= t.quiet
}

// truncated starts the current file over from its top: it was truncated
// or rewritten, and what was read of it is gone.
func (t *tailer) truncated() {
	t.restart()
	t.startOver()
	t.event(TailTruncated)
}

// open opens the file by path, reporting what happened.
func (t *tailer) open(rotated bool) {
	f, err := os.Open(t.path)
	if err != nil {
		if !t.waiting {
			t.waiting = true
			t.event(TailWaiting)
		}
		return
	}
	t.f = f
	if st, err := f.Stat(); err == nil {
		t.size = st.Size()
	}
	t.restart()
	if rotated || t.gone {
		t.startOver()
		t.event(TailRotated)
	} else {
		t.event(TailFollowing)
	}
	t.waiting, t.gone = false, false
	if from := t.from; from != nil {
		t.from = nil
		if !t.takeUp(*from) {
			// What the reader restored is not this file's start: it drops it.
			t.startOver()
			t.event(TailTruncated)
		}
	}
	t.drain()
}

// finish closes the current file, turning anything left over into a record.
func (t *tailer) finish() {
	t.flushRest()
	t.f.Close()
	t.f = nil
	t.detached = false
}

// restart resets the parse state to the top of the current file.
func (t *tailer) restart() {
	t.off, t.base = 0, 0
	t.head, t.mark = t.head[:0], t.mark[:0]
	t.buf = t.buf[:0]
	t.format = tailUnknown
	t.inArr, t.arrEnd = false, false
	t.sse, t.sseN, t.skip = t.sse[:0], 0, false
}

// rewritten tells whether the file's first bytes are no longer those read.
func (t *tailer) rewritten() bool {
	return len(t.head) > 0 && !t.holds(t.head, 0)
}

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
			t.parse()
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
			t.buf = append(t.buf, data...)
			if len(t.buf) >= need {
				t.parse()
				need = max(2*len(t.buf), 1<<20)
			}
		}
		if err != nil || len(data) == 0 {
			t.parse()
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
	t.base += int64(n)
	t.buf = append(t.buf[:0], t.buf[n:]...)
}

// parse turns the complete values in buf into records.
func (t *tailer) parse() {
	if t.format == tailUnknown && !t.detect() {
		return
	}
	switch t.format {
	case tailArray:
		t.parseArray()
	default:
		t.parseLines()
	}
}

// detect tells the format from the first bytes, once there are enough.
func (t *tailer) detect() bool {
	b := t.buf
	if t.base == 0 && len(b) < 3 && bytes.HasPrefix([]byte{0xEF, 0xBB, 0xBF}, b) {
		return false
	}
	if t.base == 0 && bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		t.consume(3)
		b = t.buf
	}
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	if i == len(b) {
		return false
	}
	if b[i] == '[' {
		t.format = tailArray
		return true
	}
	// SSE or JSON Lines: look at the first line once it is complete.
	nl := bytes.IndexByte(b[i:], '\n')
	if nl < 0 {
		return false
	}
	t.format = tailLines
	for _, f := range sseFields {
		if bytes.HasPrefix(b[i:], f) {
			t.format = tailSSE
		}
	}
	return true
}

// parseLines handles JSON Lines and SSE: only complete lines are used.
func (t *tailer) parseLines() {
	i := 0
	defer func() { t.consume(i) }()
	for {
		nl := bytes.IndexByte(t.buf[i:], '\n')
		if nl < 0 {
			if t.skip { // still inside an oversized line
				i = len(t.buf)
				return
			}
			if int64(len(t.buf)-i) > t.opts.MaxEventBytes+16 {
				t.bad("line longer than the event size limit", t.base+int64(i))
				t.end = 0 // known once the line's end is read
				t.skip = true
				i = len(t.buf)
			}
			return
		}
		ln := bytes.TrimRight(t.buf[i:i+nl], "\r")
		at := t.base + int64(i)
		seq, skipped := t.seq, t.skip
		if t.skip {
			t.skip = false // the rest of an oversized line
		} else if t.format == tailSSE {
			t.sseLine(ln, at)
		} else if len(bytes.TrimSpace(ln)) > 0 {
			t.value(bytes.TrimSpace(ln), at)
		}
		i += nl + 1
		if t.seq != seq || skipped {
			// A record ends with its line (an SSE record with its frame's
			// blank line); an oversized line's, made before its end was
			// read, with the rest of the line now skipped.
			t.end = t.base + int64(i)
		}
	}
}

// sseLine handles one SSE line: data lines gather, a blank line ends the frame.
func (t *tailer) sseLine(ln []byte, at int64) {
	if len(ln) == 0 {
		t.sseFlush(at)
		return
	}
	if !bytes.HasPrefix(ln, dataField) {
		return
	}
	d := ln[len(dataField):]
	if len(d) > 0 && d[0] == ' ' {
		d = d[1:]
	}
	if t.sseN > 0 {
		t.sse = append(t.sse, '\n')
	}
	t.sse = append(t.sse, d...)
	t.sseN++
}

func (t *tailer) sseFlush(at int64) {
	if t.sseN == 0 {
		return
	}
	if int64(len(t.sse)) > t.opts.MaxEventBytes {
		t.bad("event larger than the event size limit", at)
	} else {
		t.value(t.sse, at)
	}
	t.sse, t.sseN = t.sse[:0], 0
}

// parseArray consumes the complete elements of a JSON array being written.
func (t *tailer) parseArray() {
	i := 0
	defer func() { t.consume(i) }()
	seq := t.seq
	for !t.arrEnd {
		for i < len(t.buf) {
			c := t.buf[i]
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' || (c == ',' && t.inArr) {
				i++
				continue
			}
			break
		}
		if i == len(t.buf) {
			return
		}
		at := t.base + int64(i)
		if !t.inArr {
			if t.buf[i] != '[' {
				t.bad("the JSON array does not start with '['", at)
				t.arrEnd = true
				break
			}
			t.inArr = true
			i++
			continue
		}
		if t.buf[i] == ']' {
			t.arrEnd = true
			break
		}
		dec := jsontext.NewDecoder(bytes.NewReader(t.buf[i:]), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		v, err := dec.ReadValue()
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				if int64(len(t.buf)-i) > t.opts.MaxEventBytes+16 {
					t.bad("event larger than the event size limit", at)
					t.arrEnd = true
					break
				}
				return // wait for the rest
			}
			t.bad("the JSON array is broken here: "+err.Error(), at)
			t.arrEnd = true
			break
		}
		t.value(bytes.TrimSpace(v), at)
		i += int(dec.InputOffset())
		t.end, seq = t.base+int64(i), t.seq
	}
	i = len(t.buf) // after the end, or once broken, nothing more is read
	if t.seq != seq {
		t.end = t.base + int64(i) // a broken array's record ends what is read
	}
}

// flushRest handles what is left when a file is finished: a last line
// without its newline is decoded, an SSE frame without its blank line counts,
// anything else left is reported.
func (t *tailer) flushRest() {
	rest := bytes.TrimSpace(t.buf)
	seq := t.seq
	switch t.format {
	case tailArray:
		if len(rest) > 0 && !t.arrEnd {
			t.bad("the JSON array ends in the middle of an event", t.base)
		}
	case tailSSE:
		if len(rest) > 0 {
			t.sseLine(bytes.TrimRight(t.buf, "\r"), t.base)
		}
		t.sseFlush(t.base)
	default:
		if len(rest) > 0 && !t.skip {
			t.value(rest, t.base)
		}
	}
	if t.seq != seq {
		t.end = t.base + int64(len(t.buf))
	}
	t.buf = t.buf[:0]
}

// value decodes one complete JSON value into the next record.
func (t *tailer) value(raw []byte, at int64) {
	if int64(len(raw)) > t.opts.MaxEventBytes {
		t.bad("event larger than the event size limit", at)
		return
	}
	raw = bytes.Clone(raw)
	t.seq++
	rec := model.Record{Seq: t.seq, Proto: model.ProtoAGUI, Raw: raw, Event: agui.Decode(raw)}
	if ts, ok := agui.Time(rec.Event); ok {
		rec.At = ts
	} else {
		rec.At = time.Now()
	}
	t.pending = append(t.pending, rec)
}

// bad adds an Unreadable record.
func (t *tailer) bad(reason string, at int64) {
	t.seq++
	t.pending = append(t.pending, model.Record{Seq: t.seq, Proto: model.ProtoAGUI, At: time.Now(),
		Event: &model.Unreadable{Reason: reason, Offset: at}})
}
