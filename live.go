package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// liveFlags are the flags of the commands that watch a live source.
func liveFlags(cmd *cobra.Command, opts *commonOptions) {
	cmd.Flags().StringVar(&opts.record, "record", "", "also write the events to FILE as an AG-UI log (a JSON array, flushed per event)")
	cmd.Flags().BoolVar(&opts.appendTo, "append", false, "with --record: add to an existing log instead of refusing it")
	cmd.Flags().BoolVar(&opts.plain, "plain", false, "print one line per change (message, step, run, problem) instead of the screen")
	cmd.Flags().StringVar(&opts.layout, "layout", "auto", "screen layout: auto, side or sheet")
}

func newTailCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tail FILE",
		Short: "Fold a log from its start and keep following it, like tail -F",
		Long: `tail reads an AG-UI log from its start and follows what is appended, in any
format the reader accepts (a JSON array still being written, JSON Lines, SSE
text). It waits for a file that is not there yet, starts over when the file
is truncated, and reopens it after a rotation, a delete and re-create, or an
editor's rename-over; a partial last line waits for the rest.
With --plain it prints one line per change until ctrl+c.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return followFile(ctx, opts, args[0], stdout)
		},
	}
	liveFlags(cmd, opts)
	return cmd
}

// followFile shows a log and what is appended to it (sources.Tail), with
// the tail's state in the title bar.
func followFile(ctx context.Context, opts *commonOptions, path string, stdout io.Writer) error {
	recs, events := sources.Tail(ctx, path, sources.TailOptions{})
	status := make(chan string, 8)
	go func() {
		defer close(status)
		for ev := range events {
			status <- tailStatus(ev)
		}
	}()
	return watch(ctx, opts, path, recs, status, stdout)
}

func tailStatus(ev sources.TailEvent) string {
	switch ev {
	case sources.TailWaiting:
		return "waiting for data"
	case sources.TailTruncated:
		return "file truncated, restarted"
	case sources.TailRotated:
		return "file replaced, reopened"
	}
	return "● LIVE"
}

func newConnectCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	var input, thread, message string
	var headers []string
	cmd := &cobra.Command{
		Use:   "connect URL",
		Short: "Run an AG-UI agent over HTTP and watch its event stream",
		Long: `connect POSTs a RunAgentInput to an AG-UI endpoint and shows the
text/event-stream it answers with, live. The input is --input FILE, or one
built from --thread and --message. --header K:V adds a request header (for
example an Authorization token; headers are never logged or shown).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body := sources.RunInput(thread, message)
			if input != "" {
				b, err := os.ReadFile(input)
				if err != nil {
					return &exitError{code: exitUnreadable, err: fmt.Errorf("--input: %w", err)}
				}
				body = b
			}
			hs := map[string]string{}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return &exitError{code: exitUnreadable, err: fmt.Errorf("--header %q: want NAME:VALUE", k)}
				}
				hs[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			r, closeBody, err := sources.Connect(ctx, args[0], sources.ConnectOptions{Input: body, Headers: hs})
			if err != nil {
				return &exitError{code: exitUnreadable, err: fmt.Errorf("connect %s: %w", args[0], err)}
			}
			defer closeBody()
			batches, wait := sources.Batches(ctx, r, 512)
			status := make(chan string, 2)
			status <- "● LIVE"
			recs := make(chan []model.Record, 64)
			go func() {
				defer close(recs)
				defer close(status)
				for b := range batches {
					recs <- b
				}
				if err := wait(); err != nil {
					status <- "connection lost: " + err.Error()
				} else {
					status <- "stream ended"
				}
			}()
			return watch(ctx, opts, args[0], recs, status, stdout)
		},
	}
	cmd.Flags().StringVar(&input, "input", "", "RunAgentInput JSON file to POST")
	cmd.Flags().StringVar(&thread, "thread", "", "thread id for a built input (default: a new one)")
	cmd.Flags().StringVar(&message, "message", "", "user message for a built input")
	cmd.Flags().StringArrayVar(&headers, "header", nil, "request header NAME:VALUE (repeatable)")
	liveFlags(cmd, opts)
	return cmd
}

// watch shows a live source: on the screen, or as lines with --plain (or
// when output is not a terminal), recording it first when asked.
func watch(parent context.Context, opts *commonOptions, title string, src <-chan []model.Record, status <-chan string, stdout io.Writer) (err error) {
	if err := checkLayout(opts); err != nil {
		return err
	}
	fo, err := foldOptions(opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	in := src
	if opts.record != "" {
		rec, err := sources.CreateRecorder(opts.record, opts.appendTo)
		if err != nil {
			return &exitError{code: exitUnreadable, err: err}
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
				err = &exitError{code: exitUnreadable, err: fmt.Errorf("--record %s: %w", opts.record, werr)}
			}
		}()
		in = tee
	}
	if status == nil {
		closed := make(chan string)
		close(closed)
		status = closed
	}
	if opts.plain || !isTerminal(stdout) {
		go func() {
			for range status {
			}
		}()
		f := fold.New(fo)
		p := tui.NewPlainPrinter(stdout, f)
		for b := range in {
			u, _ := f.Apply(b...)
			if err := p.Print(u); err != nil {
				return err
			}
		}
		return nil
	}
	app := tui.NewApp(fold.New(fo), in, tui.AppOptions{Layout: opts.layout, Title: title})
	prog := tea.NewProgram(app, tea.WithInput(opts.stdinForKeys()), tea.WithOutput(stdout), tea.WithContext(ctx))
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
