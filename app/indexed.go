package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
)

// indexedLog is a replay source over a log file indexed in one streaming
// pass (sources.Index): records are read and decoded from the file when
// the player or a seek needs them, so a big log is not held in memory. Its
// length grows while the indexing goes on.
type indexedLog struct {
	file *os.File
	mu   sync.RWMutex
	ix   sources.Index
}

func (l *indexedLog) index() sources.Index {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.ix
}

// Len is how many records are indexed so far.
func (l *indexedLog) Len() int { return l.index().Len() }

// Time is record i's time.
func (l *indexedLog) Time(i int) time.Time { return l.index().At(i) }

// Records reads and decodes records i to j-1 from the file.
func (l *indexedLog) Records(i, j int) ([]model.Record, error) {
	return l.index().Records(l.file, i, j)
}

func (l *indexedLog) set(ix sources.Index) {
	l.mu.Lock()
	l.ix = ix
	l.mu.Unlock()
}

// firstChunk is how many records are indexed before the screen opens: the
// rest is indexed while the first steps already play.
const firstChunk = 4096

// openIndexed opens path and indexes its first records; the caller runs
// (*indexing).run for the rest and closes the file when done.
func openIndexed(path string) (*indexedLog, *sources.Indexer, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false, BadInput(err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, false, BadInput(fmt.Errorf("%s: not a regular file (replay needs to read it again at any place)", path))
	}
	ixr := sources.NewIndexer(f)
	l := &indexedLog{file: f}
	ix, err := ixr.Next(firstChunk)
	done := errors.Is(err, io.EOF)
	if err != nil && !done {
		f.Close()
		return nil, nil, false, BadInput(fmt.Errorf("%s: %w", path, err))
	}
	l.set(ix)
	return l, ixr, done, nil
}

// indexing finishes the index in the background, extending the schedule and
// the timeline as records become known.
type indexing struct {
	log   *indexedLog
	ixr   *sources.Indexer
	sched *replay.Schedule
	tl    *replay.Timeline
	// progress, when set, is told how many records are known, now and then.
	progress func(n int, done bool)
}

// run indexes to the end of the file (or until ctx ends), extending the
// schedule and the timeline as it goes; the Indexer reads the file from
// its own position, so it does not disturb Records.
func (x *indexing) run(ctx context.Context) error {
	return x.index(ctx, func(ix sources.Index, done bool) error {
		x.sched.Extend(x.log)
		if _, err := x.tl.Extend(ix.Len()); err != nil {
			return err
		}
		if done {
			x.tl.Release() // the whole file is folded: nothing more comes
		}
		if x.progress != nil {
			x.progress(ix.Len(), done)
		}
		return nil
	})
}

// finish indexes the rest of the file, for a caller that needs every
// record's place before it builds a schedule and a timeline.
func (x *indexing) finish(ctx context.Context) error { return x.index(ctx, nil) }

// index reads the index on to the end, handing each longer index to the
// log and then to then (when set).
func (x *indexing) index(ctx context.Context, then func(ix sources.Index, done bool) error) error {
	for ctx.Err() == nil {
		ix, err := x.ixr.Next(1 << 16)
		done := errors.Is(err, io.EOF)
		if err != nil && !done {
			return err
		}
		x.log.set(ix)
		if then != nil {
			if err := then(ix, done); err != nil {
				return err
			}
		}
		if done {
			return nil
		}
	}
	return ctx.Err()
}

// checkpointBudget is how many checkpoints a timeline over a big file
// keeps, about: past that the spacing grows with the file, so that their
// memory stays a bounded share of it instead of growing with its square.
const checkpointBudget = 256

// checkpointEvery is the timeline spacing for a log: the default, or for a
// file of size bytes whose first records average perRecord bytes, enough
// records that it holds about checkpointBudget checkpoints.
//
// A checkpoint costs pointer lists as long as the fold's, so their number
// is bounded; but a seek folds up to a spacing forward, and a wider one on
// a 1,000,000-event log put the 99th percentile seek over the 50 ms
// budget (BenchmarkReplaySeek1M; the README's "Memory limits"). So the
// default spacing holds up to about 1,000,000 records, and only larger
// logs space theirs wider.
func checkpointEvery(size int64, perRecord float64) int {
	if size <= 0 || perRecord <= 0 {
		return replay.DefaultCheckpointEvery
	}
	return max(replay.DefaultCheckpointEvery, int(float64(size)/perRecord/checkpointBudget))
}

// newTimeline starts a timeline over the records known and folds them. A
// caller whose source is whole releases it (Timeline.Release).
func newTimeline(src replay.Source, fo fold.Options) (*replay.Timeline, error) {
	every := 0
	if l, ok := src.(*indexedLog); ok {
		ix := l.index()
		if st, err := l.file.Stat(); err == nil && ix.Len() > 0 {
			every = checkpointEvery(st.Size(), float64(ix.End())/float64(ix.Len()))
		}
	}
	tl, err := replay.NewTimeline(src, fo, every)
	if err != nil {
		return nil, err
	}
	if _, err := tl.Extend(src.Len()); err != nil {
		return nil, err
	}
	return tl, nil
}
