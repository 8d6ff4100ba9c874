package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Connect runs the AG-UI agent at url (POSTing input with headers) and
// watches its event stream until it ends or ctx does. A stream that breaks
// (the connection lost, or closed in the middle of an event) is an error
// once what arrived before is shown and recorded; one the user stopped is
// not. The URL is shown with the secret part of its user information
// replaced.
func (a *App) Connect(ctx context.Context, url string, co sources.ConnectOptions) error {
	opts := a.Options
	name := sources.RedactURL(url)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r, closeBody, err := sources.Connect(ctx, url, co)
	if err != nil {
		return BadInput(fmt.Errorf("connect %s: %w", name, err))
	}
	defer closeBody()
	batches, wait := sources.Batches(ctx, r, 512)
	status := make(chan string, 2)
	recs := make(chan model.Batch, streamRoom)
	ended := make(chan error, 1)
	go func() {
		defer close(recs)
		defer close(status)
		for b := range batches {
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
	if err := a.Watch(ctx, name, recs, status); err != nil {
		return err
	}
	cancel() // a screen that quit leaves the stream running
	if err := <-ended; err != nil && !errors.Is(err, context.Canceled) {
		return BadInput(fmt.Errorf("connect %s: %w; what arrived before is shown%s", name, err, recordedNote(opts)))
	}
	return nil
}

// recordedNote says where the events that arrived were kept, if anywhere.
func recordedNote(opts *Options) string {
	if opts.Record == "" {
		return ""
	}
	return " and recorded in " + opts.Record
}
