package app

import (
	"context"

	"github.com/agentwatch/agentwatch/sources"
)

// Follow shows a log and what is appended to it (sources.Tail), with the
// tail's state in the title bar, until ctx ends or the screen quits.
func Follow(ctx context.Context, opts *Options, path string) error {
	recs, events := sources.Tail(ctx, path, sources.TailOptions{})
	status := make(chan string, 8)
	go func() {
		defer close(status)
		for ev := range events {
			status <- tailStatus(ev)
		}
	}()
	return Watch(ctx, opts, path, recs, status)
}

// tailStatus says a tail event in the words of the title bar.
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
