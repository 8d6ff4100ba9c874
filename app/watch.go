package app

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// Watch shows a live source: batches of records arriving on src (closed at
// the end of the input) and, on status, how the source is doing in a few
// words for the title bar. It draws the screen, or prints lines with
// --plain or when the output is not a terminal, and records what arrives
// first when asked to.
func Watch(parent context.Context, opts *Options, title string, src <-chan []model.Record, status <-chan string) (err error) {
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
		rec, err := sources.CreateRecorder(opts.Record, opts.Append)
		if err != nil {
			return BadInput(err)
		}
		tee := make(chan []model.Record, 64)
		done := make(chan error, 1)
		go func() {
			defer close(tee)
			var werr error
			for b := range src {
				if werr == nil {
					werr = rec.Write(b...)
				}
				select {
				case tee <- b:
				case <-ctx.Done():
					done <- werr
					return
				}
			}
			done <- werr
		}()
		defer func() {
			cancel() // the screen may have quit while records still came
			werr := <-done
			if cerr := rec.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil && err == nil {
				err = BadInput(fmt.Errorf("--record %s: %w", opts.Record, werr))
			}
		}()
		in = tee
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
		f := fold.New(fo)
		p := tui.NewPlainPrinter(opts.Stdout, f)
		for b := range in {
			u, _ := f.Apply(b...)
			if err := p.Print(u); err != nil {
				return err
			}
		}
		return nil
	}
	app := tui.NewApp(fold.New(fo), in, tui.AppOptions{Layout: opts.Layout, Title: title})
	prog := tea.NewProgram(app, tea.WithInput(opts.keys()), tea.WithOutput(opts.Stdout), tea.WithContext(ctx))
	go prog.Send(tea.RequestBackgroundColor()) // light or dark markdown theme
	go func() {
		for s := range status {
			prog.Send(tui.SourceStatusMsg(s))
		}
	}()
	if _, err := prog.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("screen: %w", err)
	}
	return nil
}
