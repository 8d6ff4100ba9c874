package app

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/replay"
)

// readIndexesKept is how many files' read-back indexes are kept at once:
// each holds a timeline of about 0.3× its file.
const readIndexesKept = 2

// readIndexes keep, for the files read back from most recently (or, while
// there is room, a big file the screen started reading: warm), a replay
// timeline over an index of the file (readIndex).
type readIndexes struct {
	mu   sync.Mutex
	kept []*readIndex // the most recently used last
}

// readIndex is a replay timeline over one file: the file indexed in one
// pass as a replay indexes it, and folded with a checkpoint every 4096
// records that holds what was open then (replay.ShedForReadBack: 38 MiB,
// 0.3× the file, for the 126 MB log). A read then folds on from the last
// checkpoint before what it wants, a few thousand records, instead of the
// file from its start: 2,000 items anywhere in a 126 MB log in 0.15–0.25 s
// (0.25–0.65 s on the screen) instead of 3–4 s. Making it takes what a
// read from the start took (2.4–2.8 s for the 126 MB log), so a file of
// readAheadFrom or more is indexed as soon as the view starts reading it
// (warm, indexBuild), beside the view's own read, and the first read back
// finds it made; a smaller one at its first read back.
//
// A file that grew since is indexed again when what is wanted was not in
// it yet; one rewritten (its first bytes, or those before where the index
// ends, changed) or cut shorter is indexed again before any read. What a
// read folds is checked against what the view folded (readback_check.go),
// so a file rewritten elsewhere is caught too.
type readIndex struct {
	mu   sync.Mutex // one read at a time, and the index built once
	path string
	fo   fold.Options
	// building is the build under way (nil when none is): wait takes its
	// index.
	building *indexBuild
	log      *indexedLog // nil until built, and after close
	tl       *replay.Timeline
	// end is where the index ends in the file, and head and last the
	// file's first bytes and those before end, as they were.
	end        int64
	head, last []byte
	// fed and decoded are how many records the build took from the screen
	// and how many it decoded from the file (indexBuild).
	fed, decoded int64
}

// readIndexEvery is the checkpoint spacing of a read index. At 16,384 the
// index of the 126 MB log kept 32 MiB rather than 38, and reads took as
// long on a quiet machine, but twice as long on a busy one.
const readIndexEvery = 4096

// fingerprint is how many bytes at the start of a file, and before where
// its index ends, tell that it is still the file indexed.
const fingerprint = 4096

// use returns path's read index, locked (the caller unlocks it), built and
// still of the file as it is. A build under way (warm) is waited for.
func (r *readIndexes) use(path string, fo fold.Options) (*readIndex, error) {
	r.mu.Lock()
	var x *readIndex
	for i, k := range r.kept {
		if k.path == path {
			x = k
			r.kept = append(r.kept[:i], r.kept[i+1:]...)
			break
		}
	}
	if x == nil {
		x = &readIndex{path: path}
	}
	r.kept = append(r.kept, x)
	var gone []*readIndex
	if n := len(r.kept) - readIndexesKept; n > 0 {
		gone = append(gone, r.kept[:n]...)
		r.kept = append([]*readIndex(nil), r.kept[n:]...)
	}
	r.mu.Unlock()
	for _, g := range gone {
		go func() { // when its reads are done
			g.mu.Lock()
			g.close()
			g.mu.Unlock()
		}()
	}
	x.mu.Lock()
	if !maps.Equal(x.fo.ToolKinds, fo.ToolKinds) || x.building == nil && (x.log == nil || !x.same()) {
		x.fo = fo
		x.start()
	}
	if err := x.wait(); err != nil {
		x.mu.Unlock()
		return nil, err
	}
	return x, nil
}

// warm starts indexing path in the background, as use would build it, so
// that the first read back finds it built: when path has no index yet and
// there is room for one without letting another go. It returns the feed
// that the records the screen folds of path go to (nil when it started
// nothing).
func (r *readIndexes) warm(path string, fo fold.Options) *buildFeed {
	r.mu.Lock()
	if len(r.kept) >= readIndexesKept || slices.ContainsFunc(r.kept, func(x *readIndex) bool { return x.path == path }) {
		r.mu.Unlock()
		return nil
	}
	x := &readIndex{path: path}
	r.kept = append(r.kept, x)
	x.mu.Lock() // before r.mu goes, so that a read waits for the build
	r.mu.Unlock()
	defer x.mu.Unlock()
	x.fo = fo
	feed := newBuildFeed()
	x.startFed(feed)
	return feed
}

// grown reports whether the file has more than the index holds.
func (x *readIndex) grown() bool {
	st, err := os.Stat(x.path)
	return err == nil && st.Size() > x.end
}

// same reports whether the file still begins as it did and holds what it
// held up to where the index ends.
func (x *readIndex) same() bool {
	st, err := x.log.file.Stat()
	if err != nil || st.Size() < x.end {
		return false
	}
	if now, err := os.Stat(x.path); err != nil || !os.SameFile(st, now) {
		return false // replaced: the path names another file now
	}
	head, err1 := readAt(x.log.file, 0, len(x.head))
	last, err2 := readAt(x.log.file, x.end-int64(len(x.last)), len(x.last))
	return err1 == nil && err2 == nil && bytes.Equal(head, x.head) && bytes.Equal(last, x.last)
}

// rebuild indexes the file again and waits for it.
func (x *readIndex) rebuild() error {
	x.start()
	return x.wait()
}

// start lets the index go and starts indexing the file anew, in the
// background (indexBuild); wait takes the index when it is built.
func (x *readIndex) start() { x.startFed(nil) }

// startFed is start, the build taking what the screen folds from feed
// (nil for none).
func (x *readIndex) startFed(feed *buildFeed) {
	x.close()
	b := &indexBuild{stop: make(chan struct{}), done: make(chan struct{})}
	x.building = b
	go b.run(x.path, x.fo, feed)
}

// wait waits for the build under way, if any, and takes its index.
func (x *readIndex) wait() error {
	b := x.building
	if b == nil {
		return nil
	}
	<-b.done
	x.building = nil
	if b.err != nil {
		return b.err
	}
	x.log, x.tl, x.end, x.head, x.last = b.log, b.tl, b.end, b.head, b.last
	x.fed, x.decoded = b.fed.Load(), b.decoded.Load()
	return nil
}

// close lets the index go and closes its file, stopping a build under way.
func (x *readIndex) close() {
	if b := x.building; b != nil {
		b.halt()
		<-b.done
		if b.err == nil {
			b.log.file.Close()
		}
		x.building = nil
	}
	if x.log != nil {
		x.log.file.Close()
	}
	x.log, x.tl, x.head, x.last = nil, nil, nil, nil
}

// readAt reads n bytes of f at off.
func readAt(f *os.File, off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := f.ReadAt(b, off)
	return b, err
}
