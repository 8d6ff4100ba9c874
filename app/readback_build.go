package app

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
)

// indexBuild is one indexing of a file for reading back (readIndex): the
// file indexed in one pass as a replay indexes it, and its timeline folded
// with a checkpoint every readIndexEvery records. It runs on goroutines of
// its own, so that a file's index is made while the screen reads the
// file, before anything is read back: one indexes the file and decodes its
// records a stretch ahead (fedLog), the other folds them, as the screen
// reads and folds on two. On one goroutine the build of the 126 MB log
// took 2.1 s of CPU, 0.74 s of it decoding and 0.4 s indexing, and lagged
// the screen's own read, which has two.
type indexBuild struct {
	stop     chan struct{} // closed (halt) to stop the build
	stopping sync.Once
	done     chan struct{} // closed when the build ended
	// fed and decoded count the records the build took from the screen
	// and those it decoded from the file.
	fed, decoded atomic.Int64
	// Once done: the index, or why there is none (its file then closed).
	err        error
	log        *indexedLog
	tl         *replay.Timeline
	end        int64
	head, last []byte
}

// halt stops the build; run ends soon after.
func (b *indexBuild) halt() { b.stopping.Do(func() { close(b.stop) }) }

// errBuildStopped is the error of a build stopped before it ended.
var errBuildStopped = errors.New("indexing stopped")

// buildAhead is how many stretches of readIndexEvery records the indexing
// goroutine decodes ahead of the fold.
const buildAhead = 2

// stretch is records i to i+len(recs)-1 of the file, decoded, or why they
// could not be.
type stretch struct {
	i    int
	recs []model.Record
	err  error
}

// run indexes the file at path and folds its timeline, from the start,
// taking the records the screen folds from feed where it gives them (feed
// may be nil).
func (b *indexBuild) run(path string, fo fold.Options, feed *buildFeed) {
	defer close(b.done)
	log, ixr, done, err := openIndexed(path)
	if err != nil {
		b.err = err
		return
	}
	fed := &fedLog{indexedLog: log}
	tl, err := replay.NewTimeline(fed, fo, readIndexEvery)
	if err != nil {
		log.file.Close()
		b.err = err
		return
	}
	tl.ReadBackOnly()
	ahead := make(chan stretch, buildAhead)
	go b.decode(log, ixr, done, feed, ahead)
	if feed != nil {
		defer feed.end() // (once decode, which takes from it, has ended)
	}
	for s := range ahead {
		if err == nil {
			err = s.err
		}
		if err != nil {
			continue // (until decode has seen the stop and ended)
		}
		fed.feed(s.i, s.recs)
		if _, err = tl.Extend(len(s.recs)); err != nil {
			b.halt()
		}
	}
	if err == nil {
		end := log.index().End()
		n := int(min(end, fingerprint))
		if b.head, err = readAt(log.file, 0, n); err == nil {
			b.last, err = readAt(log.file, end-int64(n), n)
		}
		b.end = end
	}
	if err != nil {
		log.file.Close()
		if !errors.Is(err, errBuildStopped) {
			err = fmt.Errorf("read %s: %w", path, err)
		}
		b.err = err
		return
	}
	tl.Release() // a changed file is indexed anew
	b.log, b.tl = log, tl
}

// decode indexes the rest of the file and sends its records on, decoded, in
// stretches of readIndexEvery (the timeline's own steps), until the file's
// end or the build is stopped; it closes out when it ends. A stretch the
// screen folded is taken from feed (nil for none) rather than decoded.
func (b *indexBuild) decode(log *indexedLog, ixr *sources.Indexer, done bool, feed *buildFeed, out chan<- stretch) {
	defer close(out)
	send := func(s stretch) bool {
		select {
		case out <- s:
			return true
		case <-b.stop:
			out <- stretch{err: errBuildStopped}
			return false
		}
	}
	at := 0
	for {
		for n := log.Len(); at < n; {
			j := min(n, (at/readIndexEvery+1)*readIndexEvery)
			if j < n || done { // a stretch cut short only at the end
				var recs []model.Record
				var err error
				if feed != nil {
					recs = feed.take(at, j, b.stop)
				}
				if recs == nil {
					recs, err = log.Records(at, j)
					b.decoded.Add(int64(len(recs)))
				} else {
					b.fed.Add(int64(len(recs)))
				}
				if !send(stretch{i: at, recs: recs, err: err}) || err != nil {
					return
				}
				at = j
				continue
			}
			break
		}
		if done {
			return
		}
		ix, err := ixr.Next(1 << 16)
		done = errors.Is(err, io.EOF)
		if err != nil && !done {
			send(stretch{err: err})
			return
		}
		log.set(ix)
	}
}

// fedLog is an indexedLog whose next stretch of records the build hands it
// decoded already: the timeline's Extend asks for exactly that stretch.
// Any other range is read from the file.
type fedLog struct {
	*indexedLog
	mu   sync.Mutex
	at   int
	next []model.Record
}

// feed hands over records at to at+len(recs)-1, for the next Records call.
func (l *fedLog) feed(at int, recs []model.Record) {
	l.mu.Lock()
	l.at, l.next = at, recs
	l.mu.Unlock()
}

// Records returns records i to j-1: those fed, once, else read from the
// file.
func (l *fedLog) Records(i, j int) ([]model.Record, error) {
	l.mu.Lock()
	if recs := l.next; recs != nil && i == l.at && j == l.at+len(recs) {
		l.next = nil
		l.mu.Unlock()
		return recs, nil
	}
	l.mu.Unlock()
	return l.indexedLog.Records(i, j)
}
