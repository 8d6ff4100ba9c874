package replay

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// DefaultCheckpointEvery is the checkpoint spacing NewTimeline uses when
// asked for 0. A seek restores a checkpoint (pointer lists and frozen
// indexes, see fold.Checkpoint) and folds fewer than this many records
// forward, so the spacing trades seek time against the checkpoints'
// memory. BenchmarkTimelineBuild and BenchmarkTimelineSeek on a
// 1,000,000-event loggen log, records in memory:
//
//	every   heap kept (fold + checkpoints)   seek median / p99 / worst
//	1024    1064 MiB                         1.1 / 26 / 34 ms
//	4096     411 MiB                         1.7 / 15 / 21 ms
//	16384    249 MiB                         6.1 / 21 / 22 ms
const DefaultCheckpointEvery = 4096

// Timeline holds a recorded log's fold checkpoints, so any position can be
// reached by restoring the nearest checkpoint at or before it and folding
// fewer than Every records forward: seeking backwards costs what seeking
// forwards does, and neither grows with the log. It also knows where each
// step and run begins. It is built by Extend as the log's records become
// known, and is safe for concurrent use (one goroutine extending, others
// seeking).
type Timeline struct {
	src   Source
	opts  fold.Options
	every int

	mu sync.Mutex
	// cps[i] is the threads' checkpoint after the first i*every records;
	// cps[0] is the empty set.
	cps []*fold.ThreadsCheckpoint
	// stepAt[i] is how many records were applied when step i appeared;
	// runAt likewise for runs.
	stepAt, runAt []int
	built         int

	build *fold.Threads // owned by Extend
}

// source is the name a timeline's records are routed under: a timeline
// is over one log, so one name serves.
const source = ""

// NewTimeline returns a timeline over src with a checkpoint every `every`
// records (every ≥ 1; 0 means DefaultCheckpointEvery). Nothing is folded
// until Extend.
func NewTimeline(src Source, opts fold.Options, every int) (*Timeline, error) {
	if every < 0 {
		return nil, fmt.Errorf("timeline: checkpoint spacing %d, want ≥ 1 (or 0 for the default)", every)
	}
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	t := &Timeline{src: src, opts: opts, every: every, build: fold.NewThreads(opts)}
	t.cps = []*fold.ThreadsCheckpoint{t.build.Checkpoint()}
	return t, nil
}

// BuildTimeline is NewTimeline followed by Extend over every record of src.
func BuildTimeline(src Source, opts fold.Options, every int) (*Timeline, error) {
	t, err := NewTimeline(src, opts, every)
	if err != nil {
		return nil, err
	}
	for {
		n, err := t.Extend(1 << 16)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return t, nil
		}
	}
}

// Extend folds up to max more of the records src knows, taking checkpoints
// and noting where steps and runs begin; it returns how many it folded.
// Only one goroutine may call it.
func (t *Timeline) Extend(max int) (int, error) {
	t.mu.Lock()
	from := t.built
	t.mu.Unlock()
	to := min(t.src.Len(), from+max)
	done := 0
	for i := from; i < to; {
		j := min(to, (i/t.every+1)*t.every)
		recs, err := t.src.Records(i, j)
		if err != nil {
			return done, fmt.Errorf("timeline: records %d–%d: %w", i, j, err)
		}
		before := make(map[*fold.Thread][2]int, 4)
		for _, th := range t.build.List() {
			before[th] = [2]int{len(th.Fold.Steps()), len(th.Fold.Runs())}
		}
		var steps, runs []int
		for _, u := range t.build.Apply(source, recs...) {
			b := before[u.Thread]
			f := u.Thread.Fold
			steps = append(steps, starts(recs, i, f.Steps()[b[0]:], func(s *model.Step) uint64 { return s.FirstSeq })...)
			runs = append(runs, starts(recs, i, f.Runs()[b[1]:], func(r *model.Run) uint64 { return r.FirstSeq })...)
		}
		slices.Sort(steps)
		slices.Sort(runs)
		var cp *fold.ThreadsCheckpoint
		if j%t.every == 0 {
			cp = t.build.Checkpoint()
		}
		t.mu.Lock()
		t.stepAt = append(t.stepAt, steps...)
		t.runAt = append(t.runAt, runs...)
		if cp != nil {
			t.cps = append(t.cps, cp)
		}
		t.built = j
		t.mu.Unlock()
		done += j - i
		i = j
	}
	return done, nil
}

// starts returns the position after the record each new thing began at:
// the record whose Seq is its first (recs begin at position at).
func starts[T any](recs []model.Record, at int, added []T, first func(T) uint64) []int {
	out := make([]int, 0, len(added))
	for _, x := range added {
		seq := first(x)
		k, _ := slices.BinarySearchFunc(recs, seq, func(r model.Record, s uint64) int { return cmp.Compare(r.Seq, s) })
		out = append(out, at+min(k, len(recs)-1)+1)
	}
	return out
}

// Len is the number of records folded into the timeline so far.
func (t *Timeline) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.built
}

// Every is the checkpoint spacing in records.
func (t *Timeline) Every() int { return t.every }

// Checkpoints returns how many checkpoints the timeline holds.
func (t *Timeline) Checkpoints() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.cps)
}

// StepStarts returns, for each step found so far, how many records were
// applied when it appeared: seeking there shows the step.
func (t *Timeline) StepStarts() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clip(t.stepAt)
}

// RunStarts is StepStarts for runs.
func (t *Timeline) RunStarts() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clip(t.runAt)
}

// At returns a fresh set of threads holding exactly the first k records
// (0 ≤ k ≤ Len), independent of the timeline and of other sets it
// returned.
func (t *Timeline) At(k int) (*fold.Threads, error) {
	t.mu.Lock()
	if k < 0 || k > t.built {
		n := t.built
		t.mu.Unlock()
		return nil, fmt.Errorf("timeline: position %d out of range [0, %d]", k, n)
	}
	c := min(k/t.every, len(t.cps)-1)
	cp := t.cps[c]
	t.mu.Unlock()
	ts := fold.NewThreads(t.opts)
	if c > 0 { // before the first spacing, a new set is the checkpoint
		ts = fold.ThreadsFromCheckpoint(cp, t.opts)
	}
	if k > c*t.every {
		recs, err := t.src.Records(c*t.every, k)
		if err != nil {
			return nil, fmt.Errorf("timeline: records %d–%d: %w", c*t.every, k, err)
		}
		ts.Apply(source, recs...)
	}
	return ts, nil
}
