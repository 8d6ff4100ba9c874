package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// resumeView is a screen of one big log that takes up where the last
// screen of it left off, and keeps where it leaves off itself.
type resumeView struct {
	store *resumeStore
	// path names the log as its batches do.
	path string
	// load says whether a kept resume point is looked for (not with
	// --from-start).
	load bool
	// taken gets, once, the fold taken up (nil when the log is read from
	// its start); shown is closed once the screen has it, and the tail
	// starts only then.
	taken chan *fold.Threads
	shown chan struct{}

	// saving is set while a checkpoint is being saved; failed is the
	// last save's error.
	mu     sync.Mutex
	saving bool
	failed error
}

// resumeFor is the resume view of the screen that follows src: nil when
// nothing is kept for this screen (a small file, a recording asked for,
// a file that is not an AG-UI event log, no cache folder). With
// --from-start the log is read from its start but where the screen leaves
// off is still kept. The file is not looked at again: its size and kind
// are src's, but for a big file that may hold messages, which a followed
// source leaves unread until now.
func (a *App) resumeFor(src *Source) *resumeView {
	opts := a.Options
	store := newResumeStore(opts.CacheDir)
	if store == nil || opts.Record != "" || src.Size < a.resumeMinBytes {
		return nil
	}
	if err := src.resolveMessages(); err != nil || src.Kind != KindEventLog {
		return nil
	}
	path := src.Arg
	return &resumeView{store: store, path: path, load: !opts.FromStart,
		taken: make(chan *fold.Threads, 1), shown: make(chan struct{})}
}

// follow tails the log from where the last screen of it left off: the
// resume point is loaded while the screen already shows (the title bar
// says so), handed to the screen (show), and the tail starts once the
// screen has it. Without a resume view it is the plain tail of path.
func (rv *resumeView) follow(ctx context.Context, opts *Options, path string) (<-chan model.Batch, <-chan string) {
	if rv == nil {
		batches, events := sources.TailBatches(ctx, path, sources.TailOptions{})
		return batches, tailStatuses(events)
	}
	out := make(chan model.Batch)
	status := make(chan string, 8)
	go func() {
		defer close(out)
		var ts *fold.Threads
		var from *sources.TailStart
		note := ""
		if rv.load && rv.store.has(path) {
			status <- "taking up where the last screen of this log left off…"
			if fo, err := opts.FoldOptions(); err == nil {
				var err error
				ts, from, err = rv.store.take(path, opts, fo)
				if err != nil && !errors.Is(err, errResumeStale) {
					note = sanitize.Plain("read from the start: the kept resume point is damaged (" + err.Error() + ")")
				}
			}
		}
		rv.taken <- ts
		select {
		case <-rv.shown:
		case <-ctx.Done():
			close(status)
			return
		}
		batches, events := sources.TailBatches(ctx, path, sources.TailOptions{From: from})
		if from != nil {
			note = fmt.Sprintf("taken up at %.0f MB", float64(from.Offset)/1e6)
		}
		go func() { // the tail's statuses, until it ends
			defer close(status)
			for ev := range events {
				s := tailStatus(ev)
				switch ev {
				case sources.TailFollowing:
					if note != "" && s != "" {
						s += " · " // the title bar puts its own before the first
					}
					s += note
				case sources.TailTruncated, sources.TailRotated:
					note = "" // what was taken up is gone: the file is read anew
				}
				select {
				case status <- s:
				case <-ctx.Done():
				}
			}
		}()
		for b := range batches {
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, status
}

// show hands the screen the fold taken up, if any, once it is loaded,
// and lets the tail start.
func (rv *resumeView) show(prog *tea.Program) {
	if rv == nil {
		return
	}
	go func() {
		if ts := <-rv.taken; ts != nil {
			prog.Send(tui.TakenUpMsg{Threads: ts})
		}
		close(rv.shown)
	}()
}

// keeper is the screen's Keep: each checkpoint it is given (the log read
// to its end and folded) is saved beside the screen, on a goroutine of its
// own, unless one is still being saved. Nothing is saved when the screen
// quits: that would hold the terminal for as long as a big fold takes to
// write, and the last point saved is as good a place to take up from,
// the log read on from there. A save still under way when the program
// ends is lost whole (prune clears what it left).
func (rv *resumeView) keeper(a *App, fo fold.Options) func(string, *fold.ThreadsCheckpoint, int64, uint64) {
	if rv == nil {
		return nil
	}
	return func(source string, cp *fold.ThreadsCheckpoint, end int64, seq uint64) {
		if source != rv.path {
			return
		}
		rv.mu.Lock()
		defer rv.mu.Unlock()
		if rv.saving {
			return
		}
		rv.saving = true
		go func() {
			err := rv.store.save(rv.path, fold.ThreadsFromCheckpoint(cp, fo), end, seq, a)
			rv.mu.Lock()
			defer rv.mu.Unlock()
			rv.saving, rv.failed = false, err
		}()
	}
}

// said tells, once the screen quit, of a save that failed: the view
// itself went well.
func (rv *resumeView) said(opts *Options) {
	if rv == nil {
		return
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if rv.failed != nil {
		// A file name may hold what a terminal acts on, as may the error.
		fmt.Fprintln(opts.Stderr, "agentwatch:", sanitize.Plain(fmt.Sprintf("could not keep where this view of %s left off: %v", rv.path, rv.failed)))
	}
}

// CacheDir is agentwatch's folder in the user's cache folder ("" when
// there is none).
func CacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agentwatch")
}
