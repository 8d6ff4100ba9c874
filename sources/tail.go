package sources

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

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
	// TailUnopened: the file is there but could not be opened (too many
	// files open, no permission); it is tried again at each change and
	// poll, and TailFollowing says when it opened.
	TailUnopened
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
	case TailUnopened:
		return "cannot open"
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
	// records are numbered from From.Seq+1, and when the file still holds
	// what From says was read (in any format the tail reads), reading goes
	// on at From.Offset. Otherwise the file is read from its top, after a
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
// The file may be JSON Lines, SSE text, a JSON array still being written
// (an {"events":[…]} object is read as JSON Lines, that is not followed),
// an ACP recording, or an agent's own session file (a Claude Code session,
// a Codex rollout), whose lines become the AG-UI records protocol/claude or
// protocol/codex makes of them.
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
	tailACP        // an ACP recording: JSON Lines of acp.FormatLine
	tailTranslated // an agent's session file: its lines through a translator (tail_translated.go)
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
	// unfinished is how many bytes of an array element the last parse had
	// when it found the element not yet ended (0 when none).
	unfinished int
	sse        []byte
	sseN       int // data lines in the current SSE frame
	skip       bool
	// translator translates a session file's lines (tailTranslated): one
	// per file followed, made anew when the file starts over.
	translator lineTranslator

	// more says the last drain stopped at tailDrainStep with the file not
	// read to its end.
	more bool
	// size is the file's size when last looked at (for progress).
	size int64
	// held is how many bytes the file had when the tail first found it
	// there (0 when it came later, or after a restart): a record read
	// from them without a time of its own was written before anyone
	// watched, so its arrival says nothing of when it happened and it
	// gets no time; one appended later gets its arrival time.
	held   int64
	opened bool

	seq     uint64
	pending []model.Record
	// end is the offset just past the last record made (0 when its end
	// is not read yet): the End of a batch that ends with it.
	end int64
	// from is where the first file opened is taken up (opts.From), until
	// it is opened.
	from *TailStart
	// budget, for a folder's tail, bounds the files its tails hold open
	// (folder_open.go): holding says t has a place, starved that it waits
	// for one; parked is the file t read to its end and closed.
	budget           *openBudget
	holding, starved bool
	parked           os.FileInfo
	// unopened is why the file could not be opened when TailUnopened was
	// reported (nil once it opened).
	unopened error
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
	t.held = 0
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
		t.give()
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
		case t.waitPlace() <- struct{}{}:
			t.tookPlace()
			t.check()
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
