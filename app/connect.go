package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Connect runs the AG-UI agent at url (POSTing input with headers) and
// watches its event stream until it ends or ctx does. A stream that breaks
// (the connection lost, or closed in the middle of an event) is an error
// once what arrived before is shown and recorded; one the user stopped is
// not. Until the first event the title bar says the stream is waiting for
// it. co.IdleTimeout ends a headless connect whose endpoint went silent;
// the screen, where a person sees how long it has been quiet, waits. The
// URL is shown with the secret part of its user information replaced.
func (a *App) Connect(ctx context.Context, url string, co sources.ConnectOptions) error {
	opts := a.Options
	name := sources.RedactURL(url)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opts.screen() && !opts.Plain {
		co.IdleTimeout = 0
	}
	r, closeBody, err := sources.Connect(ctx, url, co)
	if err != nil {
		return BadInput(fmt.Errorf("connect %s: %w", name, err))
	}
	defer closeBody()
	recs, status, ended := connectStream(ctx, name, r)
	if err := a.Watch(ctx, name, recs, status); err != nil {
		return err
	}
	cancel() // a screen that quit leaves the stream running
	if err := <-ended; err != nil && !errors.Is(err, context.Canceled) {
		hint := ""
		if errors.Is(err, sources.ErrIdle) {
			hint = " (--idle-timeout sets how long to wait, 0 for ever)"
		}
		return BadInput(fmt.Errorf("connect %s: %w%s; what arrived before is shown%s", name, err, hint, recordedNote(opts)))
	}
	return nil
}

// connectStream reads the stream r of the endpoint name into batches
// for the screen or the printer: its statuses say it waits for the first
// event until one comes, and that the connection was lost; ended gets how
// the stream ended (nil when ctx ended first).
func connectStream(ctx context.Context, name string, r *sources.Reader) (<-chan model.Batch, <-chan string, <-chan error) {
	batches, wait := sources.Batches(ctx, r, 512)
	status := make(chan string, 2)
	status <- waitingWords
	recs := make(chan model.Batch, streamRoom)
	ended := make(chan error, 1)
	go func() {
		defer close(recs)
		defer close(status)
		since := time.Now()
		tick := time.NewTicker(waitingTick)
		defer tick.Stop()
		waiting := tick.C
		for {
			var b []model.Record
			var more bool
			select {
			case b, more = <-batches:
			case <-waiting:
				select {
				case status <- fmt.Sprintf("connected %v ago, no event yet", time.Since(since).Round(time.Second)):
				default: // the screen has not taken the last one yet
				}
				continue
			}
			if !more {
				break
			}
			if waiting != nil {
				waiting = nil
				select {
				case status <- "": // the first event came
				case <-ctx.Done():
				}
			}
			select {
			case recs <- model.Batch{Source: name, Records: b}:
			case <-ctx.Done():
				ended <- nil
				return
			}
		}
		err := wait()
		if err != nil {
			status <- "connection lost: " + err.Error()
		}
		ended <- err
	}()
	return recs, status, ended
}

// waitingWords is what the title bar says of a stream connected and
// answered that has sent no event yet; every waitingTick after, it says
// how long it has waited.
const (
	waitingWords = "connected, waiting for the first event"
	waitingTick  = 5 * time.Second
)

// DefaultConnectIdleTimeout is how long a headless connect waits for a
// silent endpoint (no event, no keep-alive) before it fails: longer than
// an agent's model call usually takes, short enough that a script is not
// held for ever by a server that answered and then hung.
const DefaultConnectIdleTimeout = 5 * time.Minute

// recordedNote says where the events that arrived were kept, if anywhere.
func recordedNote(opts *Options) string {
	if opts.Record == "" {
		return ""
	}
	return " and recorded in " + opts.Record
}
