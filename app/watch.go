package app

import (
	"bufio"
	"context"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// Watch shows a live source of any number of threads: batches of records
// arriving on src (closed at the end of the input), each of its source,
// and on status how the source is doing in a few words for the title bar.
// It draws the screen, or prints lines with --plain or when the output is
// not a terminal, and records what arrives first when asked to.
func (a *App) Watch(parent context.Context, title string, src <-chan model.Batch, status <-chan string) (err error) {
	return a.watch(parent, title, src, status, false, nil, nil, nil, nil)
}

// watch is Watch; folder says the batches come from several files, so
// the lines name each thread's file. A screen with a resume view starts
// from the view's threads and keeps where it left off when it quits.
// project names the project of a source's threads, for the thread list
// (nil when sources have none); agents brings the states of the sessions
// of an agent's folder as they change (nil when it is none); open asks for
// a glanced file to be folded (nil when no file is glanced at).
func (a *App) watch(parent context.Context, title string, src <-chan model.Batch, status <-chan string, folder bool, resume *resumeView, project func(source string) string, agents <-chan model.AgentStates, open func(string)) (err error) {
	opts := a.Options
	if err := opts.CheckLayout(); err != nil {
		return err
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	in := src
	if opts.Record != "" {
		if folder {
			return BadInput(fmt.Errorf("--record keeps one stream; %s is a folder of logs already on disk", title))
		}
		rec, rerr := sources.CreateRecorder(opts.Record, opts.Append)
		if rerr != nil {
			return BadInput(rerr)
		}
		var recorded func() error
		in, recorded = recordTee(ctx, cancel, rec, src)
		defer func() {
			cancel() // the screen may have quit while records still came
			if rerr := recorded(); rerr != nil && err == nil {
				err = BadInput(rerr) // it names the file and what it keeps
			}
		}()
	}
	if status == nil {
		closed := make(chan string)
		close(closed)
		status = closed
	}
	if opts.Plain || !opts.screen() {
		go func() {
			for range status {
			}
		}()
		return printLines(opts, fold.NewThreads(fo), in, folder)
	}
	file := func(source string) string { return fileOf(opts, source, folder) }
	app := tui.NewThreadsApp(fold.NewThreads(fo), in, tui.AppOptions{Layout: opts.Layout, Images: opts.Images, Clipboard: localClipboard(), Title: title, Filter: opts.Filter, Project: project, Open: open, Bell: opts.Bell,
		Window: window.Options{Reader: a.fileReaders(file), Checkpoint: resume.keeper(a, fo)}})
	prog := newProgram(app, opts, tea.WithContext(ctx))
	go prog.Send(tea.RequestBackgroundColor()) // light or dark markdown theme
	go func() {
		for s := range status {
			prog.Send(tui.SourceStatusMsg(s))
		}
	}()
	if agents != nil {
		go func() {
			for s := range agents {
				prog.Send(tui.AgentStatesMsg(s))
			}
		}()
	}
	resume.show(prog)
	_, err = prog.Run()
	resume.said(opts)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("screen: %w", err)
	}
	return nil
}

// recordTee passes src's batches on, writing each to rec first. A write
// that fails stops the watch (through stop): a recording asked for and
// silently cut is worse than no watch at all. recorded waits for the tee
// to end, closes rec and returns the first error it met.
func recordTee(ctx context.Context, stop context.CancelFunc, rec *sources.Recorder, src <-chan model.Batch) (<-chan model.Batch, func() error) {
	out := make(chan model.Batch, cap(src))
	done := make(chan error, 1)
	go func() {
		defer close(out)
		var werr error
		defer func() { done <- werr }()
		for {
			var b model.Batch
			var ok bool
			select {
			case b, ok = <-src:
			case <-ctx.Done():
				return
			}
			if !ok {
				return
			}
			if werr = rec.Write(b.Records...); werr != nil {
				stop()
				return
			}
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, func() error {
		werr := <-done
		if cerr := rec.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
}

// printLines folds what arrives record by record and prints each change
// as a line: so a step shows when it appears, pending included, and the
// lines are the same however the input was cut into batches. Lines go out
// at the end of every batch, never later. When in closes, the messages
// left without an end are printed, marked unfinished. When in goes quiet
// after a burst, the memory the burst left is given back (plain_idle.go).
func printLines(opts *Options, ts *fold.Threads, in <-chan model.Batch, folder bool) error {
	return printLinesKeeping(opts, ts, in, folder, newPlainMemory(plainDefaults))
}

// printLinesKeeping is printLines keeping of each thread what keep says.
func printLinesKeeping(opts *Options, ts *fold.Threads, in <-chan model.Batch, folder bool, mem *plainMemory) error {
	w := bufio.NewWriterSize(opts.Stdout, 64<<10)
	p := tui.NewThreadsPrinter(w, ts, folder)
	mem.p = p
	for {
		b, ok := mem.next(in)
		if !ok {
			break
		}
		if b.Restart {
			gone := ts.Forget(b.Source)
			mem.dropped(gone)
			if err := p.StartOver(b.Source, gone); err != nil {
				return err
			}
		}
		for i := range b.Records {
			ups := ts.Apply(b.Source, b.Records[i])
			if err := p.Print(ups); err != nil {
				return err
			}
			mem.printed(ups)
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	// The source ended: a message still open will not be finished.
	if err := p.Finish(); err != nil {
		return err
	}
	return w.Flush()
}

// fileOf is the file a source's records can be read back from: the
// source itself when it is a file, else the --record file of a single
// stream ("" when there is none).
func fileOf(opts *Options, source string, folder bool) string {
	if st, err := os.Stat(source); err == nil && st.Mode().IsRegular() {
		return source
	}
	if !folder && opts.Record != "" {
		return opts.Record
	}
	return ""
}

// oneSource turns a single source's record batches into Batches, until
// recs closes or ctx ends; the batches close with it, which is how the
// screen knows a stream (standard input) ended.
func oneSource(ctx context.Context, name string, recs <-chan []model.Record) <-chan model.Batch {
	out := make(chan model.Batch, streamRoom)
	go func() {
		defer close(out)
		for b := range recs {
			select {
			case out <- model.Batch{Source: name, Records: b}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
