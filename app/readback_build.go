package app

import (
	"errors"
	"fmt"
	"io"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
)

// indexBuild is one indexing of a file for reading back (readIndex): the
// file indexed in one pass as a replay indexes it, and its timeline folded
// with a checkpoint every readIndexEvery records. It runs on a goroutine
// of its own, so that a file's index can be made while the screen reads
// the file, before anything is read back.
type indexBuild struct {
	stop chan struct{} // closed to stop the build
	done chan struct{} // closed when the build ended
	// Once done: the index, or why there is none (its file then closed).
	err        error
	log        *indexedLog
	tl         *replay.Timeline
	end        int64
	head, last []byte
}

// errBuildStopped is the error of a build stopped before it ended.
var errBuildStopped = errors.New("indexing stopped")

// run indexes the file at path and folds its timeline, from the start.
func (b *indexBuild) run(path string, fo fold.Options) {
	defer close(b.done)
	log, ixr, done, err := openIndexed(path)
	if err != nil {
		b.err = err
		return
	}
	tl, err := replay.NewTimeline(log, fo, readIndexEvery)
	if err == nil {
		tl.ReadBackOnly()
	}
	for err == nil && !done {
		select {
		case <-b.stop:
			err = errBuildStopped
			continue
		default:
		}
		var ix sources.Index
		ix, err = ixr.Next(1 << 16)
		done = errors.Is(err, io.EOF)
		if err != nil && !done {
			break
		}
		err = nil
		log.set(ix)
		_, err = tl.Extend(ix.Len())
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
