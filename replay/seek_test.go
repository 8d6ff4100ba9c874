package replay

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/assets"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// seekFixtures returns the peer samples, the embedded demo, a Claude Code
// session and a log of three threads.
func seekFixtures(t *testing.T) map[string][]model.Record {
	t.Helper()
	paths, _ := filepath.Glob("../testdata/peer/samples/*")
	// The agents' own session files, as their readers translate them.
	sessions, _ := filepath.Glob("../testdata/claude/projects/*/*.jsonl")
	rollouts, _ := filepath.Glob("../testdata/codex/sessions/*/*/*/*.jsonl")
	sessions = append(sessions, rollouts...)
	copilots, _ := filepath.Glob("../testdata/copilot/session-state/*/events.jsonl")
	sessions = append(sessions, copilots...)
	geminis, _ := filepath.Glob("../testdata/gemini/tmp/*/chats/*.jsonl")
	sessions = append(sessions, geminis...)
	paths = append(paths, sessions...)
	out := map[string][]model.Record{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(b, assets.Demo) {
			continue // the embedded demo, added below
		}
		recs, err := sources.ReadAll(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Base(p)] = recs
	}
	recs, err := sources.ReadAll(bytes.NewReader(assets.Demo))
	if err != nil {
		t.Fatal(err)
	}
	out["assets/demo.jsonl"] = recs
	// A Claude Code session: its records come from a translation and
	// name their thread.
	claude, err := os.ReadFile("../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if out["claude"], err = sources.ReadAll(bytes.NewReader(claude)); err != nil {
		t.Fatal(err)
	}
	// A log of several threads: seeking restores every thread.
	if out["threads"], err = sources.ReadAll(bytes.NewReader(loggen.GenerateThreads(500, 3, 5))); err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("only %d fixtures found; the seek law needs testdata/peer/samples", len(out))
	}
	return out
}

// state is a fold's export, or every thread's of a set, in order.
func state(t *testing.T, v any) []byte {
	t.Helper()
	var folds []*fold.Fold
	switch v := v.(type) {
	case *fold.Fold:
		folds = []*fold.Fold{v}
	case *fold.Threads:
		for _, th := range v.List() {
			folds = append(folds, th.Fold)
		}
	default:
		t.Fatalf("state of %T", v)
	}
	var out []byte
	for _, f := range folds {
		s, err := f.Export()
		if err != nil {
			t.Fatal(err)
		}
		out = append(append(out, s.State...), '\n')
	}
	return out
}

// foldRecs folds recs as one log, each thread on its own.
func foldRecs(recs []model.Record) *fold.Threads {
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("", recs...)
	return ts
}

// The law: for every k of a short log, and at the positions seekSplits
// picks in a longer one, the fold At(k) returns is the fold of the first k
// records shed as the timeline sheds, before every checkpoint
// (foldShedding); what it keeps is what the fold of the first k records
// without shedding has, and so is what it keeps after playing on to the
// end.
func TestTimelineSeekLaw(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		for _, c := range []struct{ every, budget int }{{1, 0}, {3, 0}, {0, 0}, {1, 2}, {3, 5}} {
			every := c.every
			label := name + "/every=" + strconv.Itoa(every)
			if c.budget > 0 {
				label += "/budget=" + strconv.Itoa(c.budget)
			}
			t.Run(label, func(t *testing.T) {
				t.Parallel()
				end := foldRecs(recs)
				tl, err := NewTimeline(Slice(recs), fold.Options{}, every)
				if err != nil {
					t.Fatal(err)
				}
				if c.budget > 0 {
					tl.SetCheckpointBudget(c.budget)
				}
				for n := 1; n > 0; {
					if n, err = tl.Extend(7); err != nil {
						t.Fatal(err)
					}
				}
				if c.budget > 0 && tl.Checkpoints() > 2 && tl.kept > c.budget {
					t.Fatalf("%d checkpoints hold %d thread checkpoints, over the budget of %d", tl.Checkpoints(), tl.kept, c.budget)
				}
				if tl.Len() != len(recs) {
					t.Fatalf("Len = %d, want %d", tl.Len(), len(recs))
				}
				// The references walk the log once, each the same fold moved on.
				shedding, whole := newWalker(recs, tl.Every()), newWalker(recs, 0)
				for _, k := range seekSplits(recs, tl.Every()) {
					f, err := tl.At(k)
					if err != nil {
						t.Fatalf("At(%d): %v", k, err)
					}
					if got, want := state(t, f), state(t, shedding.At(k)); !bytes.Equal(got, want) {
						t.Fatalf("At(%d) differs from folding the first %d records, shedding before each checkpoint:\n got %s\nwant %s", k, k, got, want)
					}
					keptAlike(t, fmt.Sprintf("At(%d)", k), f, whole.At(k))
					f.Apply("", recs[k:]...)
					keptAlike(t, fmt.Sprintf("At(%d) played to the end", k), f, end)
				}
			})
		}
	}
}

// foldShedding folds recs as a timeline with a checkpoint every `every`
// records does: shedding before each checkpoint.
func foldShedding(recs []model.Record, every int) *fold.Threads {
	ts := fold.NewThreads(fold.Options{})
	for i := 0; i < len(recs); i += every {
		j := min(len(recs), i+every)
		ts.Apply("", recs[i:j]...)
		if j%every == 0 {
			ShedForCheckpoint(ts)
		}
	}
	return ts
}

// keptAlike fails unless every item and step shed keeps is the same in
// whole, the fold of the same records that shed nothing: items whole,
// steps whole unless shed, and a shed step's skeleton the same as whole's.
func keptAlike(t *testing.T, what string, shed, whole *fold.Threads) {
	t.Helper()
	if shed.Len() != whole.Len() {
		t.Fatalf("%s: %d threads, want %d", what, shed.Len(), whole.Len())
	}
	for i, th := range shed.List() {
		w := whole.List()[i].Fold
		if th.Fold.ItemsMade() != w.ItemsMade() {
			t.Fatalf("%s: thread %d made %d items, want %d", what, i, th.Fold.ItemsMade(), w.ItemsMade())
		}
		items := w.Items()
		for _, it := range th.Fold.Items() {
			j, ok := slices.BinarySearchFunc(items, it.Seq, func(x *model.Item, seq uint64) int { return cmp.Compare(x.Seq, seq) })
			if !ok {
				t.Fatalf("%s: thread %d keeps item %d, which the fold without shedding does not have", what, i, it.Seq)
			}
			if got, want := jsonOf(t, it), jsonOf(t, items[j]); got != want {
				t.Fatalf("%s: thread %d item %d:\n got %s\nwant %s", what, i, it.Seq, got, want)
			}
		}
		if th.Fold.StepCount() != w.StepCount() {
			t.Fatalf("%s: thread %d has %d steps, want %d", what, i, th.Fold.StepCount(), w.StepCount())
		}
		for j := th.Fold.StepBase(); j < th.Fold.StepCount(); j++ {
			got, want := *th.Fold.Step(j), *w.Step(j)
			if got.Shed {
				want.Args, want.ArgsJSON, want.Result, want.ResultJSON, want.Screenshots, want.Diffs = got.Args, got.ArgsJSON, got.Result, got.ResultJSON, got.Screenshots, got.Diffs
				want.Shed = true
			}
			if a, b := jsonOf(t, got), jsonOf(t, want); a != b {
				t.Fatalf("%s: thread %d step %d:\n got %s\nwant %s", what, i, j, a, b)
			}
		}
	}
}

// jsonOf is v as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Folds from At share nothing with each other or with the timeline.
func TestTimelineAtIndependent(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		if len(recs) < 4 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			tl, err := BuildTimeline(Slice(recs), fold.Options{}, 2)
			if err != nil {
				t.Fatal(err)
			}
			k := len(recs) / 2
			a, err := tl.At(k)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tl.At(k)
			if err != nil {
				t.Fatal(err)
			}
			before := state(t, b)
			a.Apply("", recs[k:]...)
			if got := state(t, b); !bytes.Equal(got, before) {
				t.Fatalf("folding one At(%d) changed another", k)
			}
			c, err := tl.At(k)
			if err != nil {
				t.Fatal(err)
			}
			if got := state(t, c); !bytes.Equal(got, before) {
				t.Fatalf("folding an At(%d) changed the timeline", k)
			}
			for _, j := range []int{0, 1, k - 1, k, k + 1, len(recs)} {
				f, err := tl.At(j)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := state(t, f), state(t, foldShedding(recs[:j], 2)); !bytes.Equal(got, want) {
					t.Fatalf("after other folds were played, At(%d) differs from folding the first %d", j, j)
				}
			}
		})
	}
}

func TestTimelineBadPosition(t *testing.T) {
	recs := seekFixtures(t)["assets/demo.jsonl"]
	tl, err := BuildTimeline(Slice(recs), fold.Options{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{-1, len(recs) + 1, 1 << 40} {
		if f, err := tl.At(k); err == nil || f != nil {
			t.Errorf("At(%d) = %v, %v; want nil and an error", k, f, err)
		}
	}
	if _, err := NewTimeline(Slice(recs), fold.Options{}, -1); err == nil {
		t.Error("NewTimeline with every = -1: want an error")
	}
	empty, err := BuildTimeline(Slice(nil), fold.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Len() != 0 || empty.Every() != DefaultCheckpointEvery {
		t.Fatalf("empty timeline: Len %d, Every %d", empty.Len(), empty.Every())
	}
	if f, err := empty.At(0); err != nil || f.Len() != 0 {
		t.Fatalf("empty At(0) = %v, %v; want no thread", f, err)
	}
	if _, err := empty.At(1); err == nil {
		t.Fatal("empty At(1): want an error")
	}
}

var (
	benchOnce sync.Once
	benchRecs []model.Record
)

// benchLog is a 1,000,000-event generated log (172 MB as JSONL).
func benchLog(b *testing.B) []model.Record {
	b.Helper()
	benchOnce.Do(func() {
		recs, err := sources.ReadAll(bytes.NewReader(loggen.Generate(1000000, 1)))
		if err != nil {
			b.Fatal(err)
		}
		benchRecs = recs
	})
	if len(benchRecs) == 0 {
		b.Fatal("no benchmark log")
	}
	return benchRecs
}

// benchEvery are the checkpoint spacings the benchmarks compare.
var benchEvery = []int{1024, 4096, 16384}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkTimelineBuild measures NewTimeline on the 1,000,000-event log and
// the heap its checkpoints keep.
func BenchmarkTimelineBuild(b *testing.B) {
	recs := benchLog(b)
	for _, every := range benchEvery {
		b.Run("every="+strconv.Itoa(every), func(b *testing.B) {
			var tl *Timeline
			var retained uint64
			for b.Loop() {
				before := heapInUse()
				var err error
				if tl, err = BuildTimeline(Slice(recs), fold.Options{}, every); err != nil {
					b.Fatal(err)
				}
				retained = heapInUse() - before
			}
			runtime.KeepAlive(tl)
			b.ReportMetric(float64(tl.Checkpoints()), "checkpoints")
			b.ReportMetric(float64(retained)/(1<<20), "retained-MiB")
			b.ReportMetric(float64(len(recs)), "events")
		})
	}
}

// BenchmarkTimelineSeek measures At(k) at random k on the 1,000,000-event
// log, reporting the median and worst single seek besides the mean ns/op.
func BenchmarkTimelineSeek(b *testing.B) {
	recs := benchLog(b)
	for _, every := range benchEvery {
		b.Run("every="+strconv.Itoa(every), func(b *testing.B) {
			start := time.Now()
			tl, err := BuildTimeline(Slice(recs), fold.Options{}, every)
			if err != nil {
				b.Fatal(err)
			}
			build := time.Since(start)
			rng := rand.New(rand.NewSource(1))
			var times []time.Duration
			for b.Loop() {
				k := rng.Intn(tl.Len() + 1)
				t0 := time.Now()
				if _, err := tl.At(k); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
			b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
			b.ReportMetric(float64(times[len(times)-1].Nanoseconds()), "worst-ns")
			b.ReportMetric(build.Seconds()*1000, "build-ms")
		})
	}
}

// StepStarts and RunStarts are where steps and runs appear: at that
// position the fold holds the thing, one record earlier it does not.
func TestTimelineMarkers(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		t.Run(name, func(t *testing.T) {
			tl, err := BuildTimeline(Slice(recs), fold.Options{}, 5)
			if err != nil {
				t.Fatal(err)
			}
			full := foldRecs(recs)
			steps := func(ts *fold.Threads) (n int) {
				for _, th := range ts.List() {
					n += len(th.Fold.Steps())
				}
				return n
			}
			runs := func(ts *fold.Threads) (n int) {
				for _, th := range ts.List() {
					n += len(th.Fold.Runs())
				}
				return n
			}
			if got, want := len(tl.StepStarts()), steps(full); got != want {
				t.Fatalf("%d step starts, want %d", got, want)
			}
			if got, want := len(tl.RunStarts()), runs(full); got != want {
				t.Fatalf("%d run starts, want %d", got, want)
			}
			check := func(what string, at []int, count func(*fold.Threads) int) {
				for i, k := range at {
					if n := count(foldRecs(recs[:k])); n <= i {
						t.Fatalf("%s %d: at %d the fold has %d", what, i, k, n)
					}
					if n := count(foldRecs(recs[:k-1])); n > i {
						t.Fatalf("%s %d: already %d one record before %d", what, i, n, k)
					}
				}
			}
			check("step", tl.StepStarts(), steps)
			check("run", tl.RunStarts(), runs)
		})
	}
}

// Before gives, for any position k (every one of a short log, those
// seekSplits picks in a longer one) and any item At(k) shed, a fold to go
// on from that holds the item whole once the records up to k are folded
// into it, as the fold of the first k records without shedding has it.
func TestTimelineBefore(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		for _, mode := range timelineModes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				tl := modeTimeline(t, recs, 3, mode)
				read := 0
				walk := newWalker(recs, 0)
				for _, k := range seekSplits(recs, tl.Every()) {
					whole := walk.At(k)
					for _, th := range whole.List() {
						for seq := uint64(1); seq <= th.Fold.ItemsMade(); seq++ {
							ts, at, err := tl.Before(k, th.Source, th.ID, seq)
							if err != nil {
								t.Fatal(err)
							}
							more, err := tl.Records(at, k)
							if err != nil {
								t.Fatal(err)
							}
							ts.Apply("", more...)
							got := itemOf(ts, th, seq)
							want := itemOf(whole, th, seq)
							if (got == nil) != (want == nil) || got != nil && jsonOf(t, got) != jsonOf(t, want) {
								t.Fatalf("Before(%d, %q, %d) from %d: item %v, want %v", k, th.ID, seq, at, got, want)
							}
							if got != nil && at > 0 {
								read++
							}
						}
					}
				}
				if _, _, err := tl.Before(len(recs)+1, "", "", 1); err == nil {
					t.Fatal("Before past the end: want an error")
				}
				if len(recs) > 20 && read == 0 && mode != "thinned" {
					t.Fatal("every item was read from the start: no checkpoint was used")
				}
			})
		}
	}
}

// itemOf is item seq of the thread of ts that has th's source and id (nil
// when there is none).
func itemOf(ts *fold.Threads, th *fold.Thread, seq uint64) *model.Item {
	for _, x := range ts.List() {
		if x.Source != th.Source || x.ID != th.ID {
			continue
		}
		items := x.Fold.Items()
		if i, ok := slices.BinarySearchFunc(items, seq, func(it *model.Item, s uint64) int { return cmp.Compare(it.Seq, s) }); ok {
			return items[i]
		}
	}
	return nil
}

// BeforeStep gives, for any position k (every one of a short log, those
// seekSplits picks in a longer one) and any step At(k) shed, a fold to go
// on from that holds the step whole once the records up to k are folded
// into it, as the fold of the first k records without shedding has it.
func TestTimelineBeforeStep(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		for _, mode := range timelineModes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				tl := modeTimeline(t, recs, 3, mode)
				shed := 0
				walk := newWalker(recs, 0)
				for _, k := range seekSplits(recs, tl.Every()) {
					whole := walk.At(k)
					at, err := tl.At(k)
					if err != nil {
						t.Fatal(err)
					}
					for _, th := range whole.List() {
						for i := range th.Fold.StepCount() {
							// (Shed, or forgotten by a read-back timeline.)
							if s := findThread(at.List(), th.Source, th.ID).Fold.Step(i); s == nil || s.Shed {
								shed++
							}
							ts, from, err := tl.BeforeStep(k, th.Source, th.ID, i)
							if err != nil {
								t.Fatal(err)
							}
							more, err := tl.Records(from, k)
							if err != nil {
								t.Fatal(err)
							}
							ts.Apply("", more...)
							got := findThread(ts.List(), th.Source, th.ID).Fold.Step(i)
							if a, b := jsonOf(t, got), jsonOf(t, th.Fold.Step(i)); a != b {
								t.Fatalf("BeforeStep(%d, %q, %d) from %d:\n got %s\nwant %s", k, th.ID, i, from, a, b)
							}
						}
					}
				}
				if len(recs) > 50 && shed == 0 {
					t.Log("no step was shed: nothing read back")
				}
			})
		}
	}
}

// timelineModes are the ways a timeline sheds: for a replay, for reading
// back only (ReadBackOnly), and for a replay whose checkpoints are thinned
// to a budget of 4 thread checkpoints (a checkpoint only every several
// places it sheds).
var timelineModes = []string{"replay", "read-back", "thinned"}

// modeTimeline builds a timeline over recs that sheds as mode says.
func modeTimeline(t *testing.T, recs []model.Record, every int, mode string) *Timeline {
	t.Helper()
	tl, err := NewTimeline(Slice(recs), fold.Options{}, every)
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "read-back":
		tl.ReadBackOnly()
	case "thinned":
		tl.SetCheckpointBudget(4)
	}
	if _, err := tl.Extend(len(recs)); err != nil {
		t.Fatal(err)
	}
	return tl
}
