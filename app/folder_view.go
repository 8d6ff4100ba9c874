package app

import (
	"context"
	"os"
	"os/signal"

	"github.com/agentwatch/agentwatch/model"
)

// viewFolder shows a folder's threads: with --plain every log is read to
// its end and its lines printed, file after file; on the screen the folder
// is followed (FollowFolder).
func (a *App) viewFolder(src *Source) error {
	opts := a.Options
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !opts.Plain {
		return a.FollowFolder(ctx, src)
	}
	members, skipped := src.Members()
	NoteSkipped(opts.Stderr, skipped)
	batches := make(chan model.Batch, streamRoom)
	errs := make(chan error, 1)
	go func() {
		defer close(batches)
		for _, m := range members {
			err := readInto(opts, m, func(recs []model.Record) {
				select {
				case batches <- model.Batch{Source: m.Name(), Records: recs}:
				case <-ctx.Done():
				}
			})
			if err != nil {
				NoteSkipped(opts.Stderr, []Skipped{{Path: m.Arg, Reason: err.Error()}})
			}
			if ctx.Err() != nil {
				break
			}
		}
		errs <- nil
	}()
	err := a.watch(ctx, src.Arg, batches, nil, true, nil, nil, nil, nil)
	stop()
	for range batches {
	}
	<-errs
	return err
}
