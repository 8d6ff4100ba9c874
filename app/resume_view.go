package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
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
}

// resumeFor is the resume view of the screen that follows path: nil when
// nothing is kept for this screen (a small file, a recording asked for,
// a file that is not an AG-UI event log, no cache folder). With
// --from-start the log is read from its start but where the screen leaves
// off is still kept.
func resumeFor(opts *Options, path string, size int64) *resumeView {
	store := newResumeStore(opts.CacheDir)
	if store == nil || opts.Record != "" || size < resumeMinBytes {
		return nil
	}
	if src, err := Identify(path); err != nil || src.Kind != KindEventLog {
		return nil
	}
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
		defer close(status)
		var ts *fold.Threads
		var from *sources.TailStart
		if rv.load && rv.store.has(path) {
			status <- "taking up where the last screen of this log left off…"
			if fo, err := opts.FoldOptions(); err == nil {
				ts, from, _ = rv.store.load(path, opts, fo)
			}
		}
		rv.taken <- ts
		select {
		case <-rv.shown:
		case <-ctx.Done():
			return
		}
		batches, events := sources.TailBatches(ctx, path, sources.TailOptions{From: from})
		note := ""
		if from != nil {
			note = fmt.Sprintf(" · taken up at %.0f MB", float64(from.Offset)/1e6)
		}
		go func() {
			for ev := range events {
				s := tailStatus(ev)
				if ev == sources.TailFollowing {
					s += note
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

// keep saves where the screen left off, once it quit. A save that fails
// is said on standard error; the view itself went well.
func (rv *resumeView) keep(opts *Options, app *tui.App) {
	if rv == nil {
		return
	}
	end, seq, ok := app.FoldedTo(rv.path)
	if !ok {
		return
	}
	if err := rv.store.save(rv.path, app.Threads(), end, seq, opts); err != nil {
		fmt.Fprintf(opts.Stderr, "agentwatch: could not keep where this view of %s left off: %v\n", rv.path, err)
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
