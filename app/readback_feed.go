package app

import (
	"sync/atomic"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// buildFeed hands the records the screen folds of a file to the build of
// the file's read index (indexBuild), so that the build folds them rather
// than decode the file a second time: the index's checkpoints are taken as
// the screen reads, at the cost of a fold and of indexing the file's
// places, not of reading it twice. Whatever the feed does not give in
// order — records before a view took up, batches dropped while the build
// was behind, a file that started over — the build decodes from the file.
type buildFeed struct {
	in  chan []model.Record
	off atomic.Bool // the file started over: its records are not the ones indexed
	// folded is the Seq of the last record the screen folded, given or
	// dropped: the build waits only for records the screen has not come to.
	folded atomic.Uint64
	// pending are records given and not yet taken, in order, and quiet
	// says the screen gave nothing for feedWait: the build waits for it
	// again only once it gives more (the build's goroutine alone).
	pending []model.Record
	quiet   bool
}

// feedRoom is how many of the screen's batches (1 MiB steps of the file)
// wait for a build that is behind before the screen's are dropped: the
// build decodes those from the file.
const feedRoom = 4

// feedWait is how long the build waits for the screen to fold the records
// it needs next, before it decodes them from the file itself, and does not
// wait again until the screen gives more: the screen may have stopped
// reading, or read more slowly than a build from the file goes.
const feedWait = time.Second

func newBuildFeed() *buildFeed { return &buildFeed{in: make(chan []model.Record, feedRoom)} }

// give hands over what the screen folded of the file; it never waits.
func (f *buildFeed) give(b model.Batch) {
	if b.Restart {
		f.off.Store(true)
	}
	if f.off.Load() || len(b.Records) == 0 {
		return
	}
	defer f.folded.Store(b.Records[len(b.Records)-1].Seq) // (once sent, if it is)
	select {
	case f.in <- b.Records:
		if f.off.Load() {
			f.drain() // the build ended meanwhile
		}
	default: // the build is behind: it reads these from the file
	}
}

// end says the build is over: what is given from now on is dropped, and
// what waits is let go.
func (f *buildFeed) end() {
	f.off.Store(true)
	f.drain()
	f.pending = nil
}

// drain drops what waits to be taken.
func (f *buildFeed) drain() {
	for {
		select {
		case <-f.in:
		default:
			return
		}
	}
}

// take returns records at to j-1 of the file (Seq at+1 to j) as the screen
// folded them, waiting for the screen to fold them while it goes on doing
// so; nil when they are not all given in order, or stop is closed.
func (f *buildFeed) take(at, j int, stop <-chan struct{}) []model.Record {
	timer := time.NewTimer(feedWait)
	defer timer.Stop()
	for {
		if f.off.Load() {
			f.pending = nil
			return nil
		}
		// Records before at were decoded from the file.
		k := 0
		for k < len(f.pending) && f.pending[k].Seq <= uint64(at) {
			k++
		}
		f.pending = f.pending[k:]
		if len(f.pending) > 0 && f.pending[0].Seq != uint64(at)+1 {
			return nil // a gap: read from the file up to what was given
		}
		if n := j - at; len(f.pending) >= n {
			if f.pending[n-1].Seq != uint64(j) {
				f.pending = nil // not in order
				return nil
			}
			recs := f.pending[:n:n]
			f.pending = f.pending[n:]
			return recs
		}
		if len(f.in) == 0 && f.folded.Load() >= uint64(j) {
			return nil // the screen folded them, but the build was behind
		}
		if f.quiet {
			select {
			case recs := <-f.in:
				f.pending, f.quiet = append(f.pending, recs...), false
				continue
			default:
				return nil
			}
		}
		select {
		case recs := <-f.in:
			f.pending = append(f.pending, recs...)
			if !timer.Stop() {
				<-timer.C
			}
			timer.Reset(feedWait)
		case <-timer.C:
			f.quiet = true
			return nil
		case <-stop:
			return nil
		}
	}
}
