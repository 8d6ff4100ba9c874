package replay

import (
	"context"
	"fmt"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Clock is the time a Pacer or Player runs on: the real one, or a fake in tests.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// RealClock is the wall clock.
var RealClock Clock = realClock{}

// PacerOptions shape a paced replay into a channel.
type PacerOptions struct {
	// Speed divides the schedule's gaps (2 plays twice as fast); 0 means 1.
	Speed float64
	// From is the first record played; the ones before it are sent at once
	// in one batch (a replay that starts part-way).
	From int
	// Clock defaults to RealClock.
	Clock Clock
}

// Pacer hands a log's records on at their scheduled times, for outputs
// that only take records in order (the --plain lines, a demo fed to a
// live screen). The interactive screen uses a Player instead.
type Pacer struct {
	src   Source
	sched *Schedule
	opts  PacerOptions
}

// NewPacer paces src's records by sched (which must be over src).
func NewPacer(src Source, sched *Schedule, opts PacerOptions) *Pacer {
	opts.Speed = clampSpeed(opts.Speed)
	if opts.Clock == nil {
		opts.Clock = RealClock
	}
	return &Pacer{src: src, sched: sched, opts: opts}
}

// Run plays the records into out, each batch holding every record that is
// due at the same moment, and returns when all are sent (nil) or ctx ends
// (its error). Lateness does not accumulate: each record is scheduled from
// the start of play, not from the record before it. A log that can only be
// stepped (no times, no pace) is sent at once.
func (p *Pacer) Run(ctx context.Context, out chan<- []model.Record) error {
	n := min(p.src.Len(), p.sched.Len())
	from := min(max(p.opts.From, 0), n)
	send := func(i, j int) error {
		recs, err := p.src.Records(i, j)
		if err != nil {
			return fmt.Errorf("replay: records %d–%d: %w", i, j, err)
		}
		select {
		case out <- recs:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if from > 0 {
		if err := send(0, from); err != nil {
			return err
		}
	}
	if p.sched.SteppingOnly() {
		if from < n {
			return send(from, n)
		}
		return nil
	}
	var origin time.Duration
	if from > 0 {
		origin = p.sched.At(from - 1)
	}
	start := p.opts.Clock.Now()
	for i := from; i < n; {
		due := time.Duration(float64(p.sched.At(i)-origin) / p.opts.Speed)
		if wait := due - p.opts.Clock.Now().Sub(start); wait > 0 {
			select {
			case <-p.opts.Clock.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		played := origin + time.Duration(float64(p.opts.Clock.Now().Sub(start))*p.opts.Speed)
		j := max(i+1, min(p.sched.Due(played), n))
		if err := send(i, j); err != nil {
			return err
		}
		i = j
	}
	return nil
}
