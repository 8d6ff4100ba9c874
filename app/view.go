package app

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/agentwatch/agentwatch/sources"
)

// View is what agentwatch does with one argument and no command: the demo
// plays; a file (an event log, or an ACP recording) opens for review and
// is followed if it grows; messages files open for step-through; standard input is
// watched live. Piped without --plain it prints the step list instead.
func (a *App) View(src *Source) error {
	opts := a.Options
	if err := opts.CheckLayout(); err != nil {
		return err
	}
	if err := withToolKinds(opts, src); err != nil {
		return err
	}
	switch {
	case src.Kind == KindOTLP && !opts.Play && !opts.Plain && opts.screen() && src.PerLine:
		// On the screen an OTLP file is followed as it grows, line by line.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return a.Follow(ctx, src)
	case src.Kind == KindMessages, src.Kind == KindOTLP && !opts.Play:
		return a.reviewMessages(src)
	case src.Kind == KindURL:
		_, _, err := src.Open(opts.Stdin)
		return err
	}
	if !opts.Plain && opts.Record == "" && !opts.screen() {
		// Piped without --plain: the step list, for scripts.
		ts, skipped, err := a.FoldThreads(src)
		if err != nil {
			return err
		}
		NoteSkipped(opts.Stderr, skipped)
		steps, runs := 0, 0
		for _, th := range ts.List() {
			steps += len(th.Fold.Steps())
			runs += len(th.Fold.Runs())
		}
		threads := ""
		if ts.Len() > 1 {
			threads = Plural(ts.Len(), "thread") + ", "
		}
		fmt.Fprintf(opts.Stdout, "%s: %s%s, %s, %s\n", src.Name(), threads, Plural(steps, "step"), Plural(runs, "run"), Plural(ThreadsProblems(ts), "diagnostic"))
		if ts.Len() > 0 {
			PrintThreadSteps(opts.Stdout, ts.List())
		}
		return nil
	}
	if src.Kind == KindFolder {
		return a.viewFolder(src)
	}
	if (src.Kind == KindDemo || opts.Play) && !opts.Plain && opts.Record == "" {
		// The demo, and a log opened with --play, play at their recorded pace.
		return a.Replay(DefaultReplay(), src)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if src.Kind == KindEventLog && !opts.Plain {
		// On the screen a file is followed if it grows, as tail does.
		if !src.Found {
			_, _, err := src.Open(opts.Stdin) // the same error as the other commands
			return err
		}
		return a.Follow(ctx, src)
	}
	in, closeIn, err := src.Open(opts.Stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	// Buffered, so a burst waits here and the screen takes it as one batch
	// (TestBurstIsBatched: ~150 updates for 10,000 sends, ~5,000 unbuffered).
	batches, _ := sources.Batches(ctx, sources.NewReader(in), 512)
	return a.Watch(ctx, src.Name(), liveOTLP(ctx, opts, oneSource(ctx, src.Name(), batches)), nil)
}
