package replay

import (
	"context"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Clock is the time a Pacer runs on: the real one, or a fake in tests.
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

// PacerOptions shape a paced replay.
type PacerOptions struct {
	// Speed divides the recorded gaps (2 plays twice as fast); 0 means 1.
	Speed float64
	// IdleCap shortens any recorded gap longer than it to it (after
	// scaling by Speed), as asciinema's idle_time_limit does; 0 means no cap.
	IdleCap time.Duration
	// Clock defaults to RealClock.
	Clock Clock
}

// Pacer hands recorded records on at their recorded offsets, so a saved
// run plays as it happened. Records without a time keep the pace of the
// record before them.
type Pacer struct {
	recs []model.Record
	at   []time.Duration // when each record is due, from the start of play
	opts PacerOptions
}

// NewPacer schedules recs (in order) for playing.
func NewPacer(recs []model.Record, opts PacerOptions) *Pacer {
	if opts.Speed <= 0 {
		opts.Speed = 1
	}
	if opts.Clock == nil {
		opts.Clock = RealClock
	}
	p := &Pacer{recs: recs, at: make([]time.Duration, len(recs)), opts: opts}
	var due time.Duration
	var last time.Time
	for i, r := range recs {
		if !r.At.IsZero() {
			if !last.IsZero() {
				if gap := r.At.Sub(last); gap > 0 {
					due += p.scale(gap)
				}
			}
			last = r.At
		}
		p.at[i] = due
	}
	return p
}

// scale applies the speed and the idle cap to one recorded gap.
func (p *Pacer) scale(gap time.Duration) time.Duration {
	d := time.Duration(float64(gap) / p.opts.Speed)
	if p.opts.IdleCap > 0 && d > p.opts.IdleCap {
		d = p.opts.IdleCap
	}
	return d
}

// Duration is how long playing all records takes.
func (p *Pacer) Duration() time.Duration {
	if len(p.at) == 0 {
		return 0
	}
	return p.at[len(p.at)-1]
}

// Due returns when record i is handed on, from the start of play.
func (p *Pacer) Due(i int) time.Duration { return p.at[i] }

// Run plays the records into out, each batch holding every record that is
// due at the same moment, and returns when all are sent (nil) or ctx ends
// (its error). Lateness does not accumulate: each record is scheduled from
// the start of play, not from the record before it.
func (p *Pacer) Run(ctx context.Context, out chan<- []model.Record) error {
	start := p.opts.Clock.Now()
	for i := 0; i < len(p.recs); {
		if wait := p.at[i] - p.opts.Clock.Now().Sub(start); wait > 0 {
			select {
			case <-p.opts.Clock.After(wait):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		elapsed := p.opts.Clock.Now().Sub(start)
		j := i + 1
		for j < len(p.recs) && p.at[j] <= elapsed {
			j++
		}
		select {
		case out <- p.recs[i:j:j]:
		case <-ctx.Done():
			return ctx.Err()
		}
		i = j
	}
	return nil
}
