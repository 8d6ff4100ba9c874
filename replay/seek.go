package replay

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// DefaultCheckpointEvery is the checkpoint spacing NewTimeline uses when
// asked for 0. A seek restores a checkpoint (pointer lists and frozen
// indexes, see fold.Checkpoint) and folds fewer than this many records
// forward, so the spacing trades seek time against the checkpoints'
// memory: 4096 kept the 99th percentile seek of a 1,000,000-event log
// under 5 ms for about 0.6× the memory of 1024 (BenchmarkTimelineBuild
// and BenchmarkTimelineSeek; the README's "Memory limits" has the table).
const DefaultCheckpointEvery = 4096

// Timeline holds a recorded log's fold checkpoints, so any position can be
// reached by restoring the nearest checkpoint at or before it and folding
// fewer than Every records forward: seeking backwards costs what seeking
// forwards does, and neither grows with the log. It also knows where each
// step and run begins. It is built by Extend as the log's records become
// known, and is safe for concurrent use (one goroutine extending, others
// seeking).
//
// Before each checkpoint the timeline sheds what is finished
// (ShedForCheckpoint), so that its checkpoints hold what was open and the
// skeletons of steps, not everything the log said: the fold At returns
// has the items made since its checkpoint, and those still open then;
// Before finds where to fold from to read the others back.
type Timeline struct {
	src   Source
	opts  fold.Options
	every int
	// budget is how many thread checkpoints (a checkpoint of n threads
	// counts n) the timeline keeps at most (thin.go).
	budget int

	mu sync.Mutex
	// cps[i] is the threads' checkpoint after the first i*stride records;
	// cps[0] is the empty set. stride is a power-of-two multiple of every:
	// the timeline sheds every `every` records, and keeps a checkpoint of
	// every stride/every of those places (thin.go).
	cps    []*fold.ThreadsCheckpoint
	stride int
	// threads[i] is how many threads cps[i] holds; kept sums them.
	threads []int
	kept    int
	// stepAt[i] is how many records were applied when step i appeared;
	// runAt likewise for runs.
	stepAt, runAt []int
	built         int

	build *fold.Threads // owned by Extend
	// shed is what Extend sheds before each checkpoint.
	shed func(*fold.Threads)
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
	t := &Timeline{src: src, opts: opts, every: every, stride: every, budget: DefaultCheckpointBudget, build: fold.NewThreads(opts), shed: ShedForCheckpoint}
	t.cps, t.threads = []*fold.ThreadsCheckpoint{t.build.Checkpoint()}, []int{0}
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
	if t.build == nil && to > from {
		if err := t.resume(); err != nil {
			return 0, err
		}
	}
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
			t.shed(t.build)
			if j%t.stride == 0 { // only Extend changes stride
				cp = t.build.Checkpoint()
			}
		}
		t.mu.Lock()
		t.stepAt = append(t.stepAt, steps...)
		t.runAt = append(t.runAt, runs...)
		if cp != nil {
			t.keep(cp, t.build.Len())
		}
		t.built = j
		t.mu.Unlock()
		done += j - i
		i = j
	}
	return done, nil
}

// ShedForCheckpoint trims every thread of ts to keepReplay, as the
// timeline does before each checkpoint.
//
// Kept whole, the checkpoints of a log held all of it, most of that the
// fold. A checkpoint of a shed fold holds what was open when it was taken; what a person
// scrolls back to is read back by folding on from an earlier checkpoint
// (Before).
func ShedForCheckpoint(ts *fold.Threads) { ts.Trim(keepReplay) }

// keepReplay is what a replay keeps of each thread at a checkpoint:
// no finished item, the content of the newest finished step only (what a
// replay's panel shows), every step's skeleton (for the step timeline)
// and the tombstones the trim before made.
var keepReplay = fold.Keep{Items: 0, Content: 1, Skeletons: fold.All, Tombstones: fold.TombstonesRecent}

// ReadBackOnly makes the timeline shed more before its checkpoints
// (ShedForReadBack): for a timeline only read back from (Before,
// BeforeStep, Items), whose folds are never shown or played. Call it
// before the first Extend.
func (t *Timeline) ReadBackOnly() { t.shed = ShedForReadBack }

// ShedForReadBack is ShedForCheckpoint to the bone (keepReadBack): every
// finished item, the content and the skeleton of every finished step, old
// tombstones. A fold shed so cannot draw a step timeline, but reading a
// shed item or step back from its checkpoint goes as from one that kept
// more: what is read back is made after the checkpoint. A read-back
// timeline keeps about three quarters of what one shed as for a replay
// keeps.
func ShedForReadBack(ts *fold.Threads) { ts.Trim(keepReadBack) }

// keepReadBack keeps no finished item, no step's content or skeleton, and
// the tombstones the trim before made.
var keepReadBack = fold.Keep{Tombstones: fold.TombstonesRecent}

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

// Every is how many records apart the timeline sheds (ShedForCheckpoint):
// the fold at a position is the fold of the records before it, shed at
// each multiple of Every. Its checkpoints are a multiple of it apart.
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
	c := min(k/t.stride, len(t.cps)-1)
	cp, from := t.cps[c], c*t.stride
	t.mu.Unlock()
	ts := fold.NewThreads(t.opts)
	if c > 0 { // before the first spacing, a new set is the checkpoint
		ts = fold.ThreadsFromCheckpoint(cp, t.opts)
	}
	if err := t.foldOn(ts, from, k); err != nil {
		return nil, err
	}
	return ts, nil
}

// Before returns a fresh set of threads for reading back what At(k) shed of
// the thread id of source: restored from the latest checkpoint at or before
// k in which that thread had made fewer than seq items, so that every item
// numbered seq or more is whole in it, and how many records it holds.
// Folding on from there to k (Records) gives those items as the fold of
// the first k records has them.
func (t *Timeline) Before(k int, source, id string, seq uint64) (*fold.Threads, int, error) {
	return t.before(k, func(cp *fold.ThreadsCheckpoint) bool {
		made, _ := cp.ItemsMade(source, id)
		return made >= seq
	})
}

// BeforeStep is Before for a step: a fresh set of threads restored from
// the latest checkpoint at or before k in which the thread id of source had
// not begun step (its index), so that the step is whole in it once it
// comes, and how many records it holds.
func (t *Timeline) BeforeStep(k int, source, id string, step int) (*fold.Threads, int, error) {
	return t.before(k, func(cp *fold.ThreadsCheckpoint) bool {
		made, _ := cp.StepsMade(source, id)
		return made > step
	})
}

// before returns a set restored from the checkpoint before the first at or
// before k that too (which only ever turns true) picks, and its position.
func (t *Timeline) before(k int, too func(*fold.ThreadsCheckpoint) bool) (*fold.Threads, int, error) {
	t.mu.Lock()
	if k < 0 || k > t.built {
		n := t.built
		t.mu.Unlock()
		return nil, 0, fmt.Errorf("timeline: position %d out of range [0, %d]", k, n)
	}
	cps, stride := t.cps[:min(k/t.stride, len(t.cps)-1)+1], t.stride
	t.mu.Unlock()
	c := sort.Search(len(cps), func(i int) bool { return too(cps[i]) }) - 1
	if c <= 0 {
		return fold.NewThreads(t.opts), 0, nil
	}
	return fold.ThreadsFromCheckpoint(cps[c], t.opts), c * stride, nil
}

// Records reads records i to j−1 of the timeline's log.
func (t *Timeline) Records(i, j int) ([]model.Record, error) { return t.src.Records(i, j) }
