package replay

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// DefaultCheckpointEvery is the checkpoint spacing NewTimeline uses when
// asked for 0. Measured with BenchmarkTimelineSeek on a 200,000-event
// loggen log (every=1000): median seek 53 ms, worst 311 ms, build 12.9 s,
// checkpoints 3.1 GiB. The seek is dominated by decoding the restored
// state, which grows with the log, not by the < 1000 records folded
// forward; checkpoint memory is one whole exported state per spacing, so
// a smaller spacing (a run including 250 was killed, most likely out of
// memory: ~12 GiB by extrapolation) is ruled out and 1000 is the
// smallest that fits. Full-state checkpoints do not scale: see the report.
const DefaultCheckpointEvery = 1000

// Timeline holds a recorded log's records and fold checkpoints, so any position can be
// reached by restoring the nearest checkpoint at or before it and folding fewer than
// Every records forward. It is correct (the seek law holds for every position) but
// not yet fast enough for big logs: each checkpoint is a whole exported state, so
// restore cost and memory grow with the log (see DefaultCheckpointEvery). Issue 5's
// budget (< 50 ms anywhere in 1,000,000 events) needs checkpoints that share
// structure or hold only what changed.
type Timeline struct {
	recs  []model.Record
	opts  fold.Options
	every int
	// cps[i] is the fold's export after the first i*every records; cps[0]
	// is the empty fold.
	cps []model.Snapshot
}

// NewTimeline folds recs once from the start, exporting a checkpoint every
// `every` records (every ≥ 1; 0 means DefaultCheckpointEvery). The records
// are kept (the slice is copied, not the records' contents); records of
// another thread are skipped and reported by the fold as always.
func NewTimeline(recs []model.Record, opts fold.Options, every int) (*Timeline, error) {
	if every < 0 {
		return nil, fmt.Errorf("timeline: checkpoint spacing %d, want ≥ 1 (or 0 for the default)", every)
	}
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	t := &Timeline{recs: slices.Clone(recs), opts: opts, every: every}
	t.cps = make([]model.Snapshot, 0, len(recs)/every+1)
	f := fold.New(opts)
	for i := 0; ; i += every {
		if i > 0 {
			if err := apply(f, t.recs[i-every:i]); err != nil {
				return nil, err
			}
		}
		snap, err := f.Export()
		if err != nil {
			return nil, fmt.Errorf("timeline: checkpoint at %d: %w", i, err)
		}
		t.cps = append(t.cps, snap)
		if i+every > len(t.recs) {
			break
		}
	}
	return t, nil
}

// apply folds recs into f; records of another thread are not an error here
// (the fold skips and reports them, as it does live).
func apply(f *fold.Fold, recs []model.Record) error {
	if len(recs) == 0 {
		return nil
	}
	_, err := f.Apply(recs...)
	if err != nil && !onlyCorrelation(err) {
		return fmt.Errorf("timeline: %w", err)
	}
	return nil
}

// onlyCorrelation reports whether every error joined in err is a
// correlation error.
func onlyCorrelation(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !onlyCorrelation(e) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, fold.ErrCorrelation)
}

// Len is the number of records in the timeline.
func (t *Timeline) Len() int { return len(t.recs) }

// Every is the checkpoint spacing in records.
func (t *Timeline) Every() int { return t.every }

// Checkpoints returns how many checkpoints the timeline holds and the bytes
// of state they keep.
func (t *Timeline) Checkpoints() (n int, bytes int64) {
	for _, c := range t.cps {
		bytes += int64(len(c.State))
	}
	return len(t.cps), bytes
}

// Records returns the timeline's records; the slice must not be modified.
func (t *Timeline) Records() []model.Record { return t.recs }

// At returns a fresh fold holding exactly the first k records (0 ≤ k ≤ len), independent of the Timeline.
func (t *Timeline) At(k int) (*fold.Fold, error) {
	if k < 0 || k > len(t.recs) {
		return nil, fmt.Errorf("timeline: position %d out of range [0, %d]", k, len(t.recs))
	}
	c := k / t.every
	if c >= len(t.cps) { // cannot happen: a checkpoint exists for every multiple of every ≤ len
		c = len(t.cps) - 1
	}
	f := fold.New(t.opts)
	if c > 0 { // before the first spacing, a new fold is the checkpoint (and stays Fresh)
		if err := f.Restore(t.cps[c]); err != nil {
			return nil, fmt.Errorf("timeline: restore checkpoint %d: %w", c, err)
		}
	}
	if err := apply(f, t.recs[c*t.every:k]); err != nil {
		return nil, err
	}
	return f, nil
}
