package app

import (
	"context"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Connect runs the AG-UI agent at url (POSTing input with headers) and
// watches its event stream until it ends or ctx does.
func Connect(ctx context.Context, opts *Options, url string, co sources.ConnectOptions) error {
	r, closeBody, err := sources.Connect(ctx, url, co)
	if err != nil {
		return BadInput(fmt.Errorf("connect %s: %w", url, err))
	}
	defer closeBody()
	batches, wait := sources.Batches(ctx, r, 512)
	status := make(chan string, 2)
	status <- "● LIVE"
	recs := make(chan model.Batch, 64)
	go func() {
		defer close(recs)
		defer close(status)
		for b := range batches {
			select {
			case recs <- model.Batch{Source: url, Records: b}:
			case <-ctx.Done():
				return
			}
		}
		if err := wait(); err != nil {
			status <- "connection lost: " + err.Error()
		} else {
			status <- "stream ended"
		}
	}()
	return Watch(ctx, opts, url, recs, status)
}
