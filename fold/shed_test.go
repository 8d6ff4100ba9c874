package fold_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

// shedKeeps are the (items, content) pairs the shedding laws try:
// everything dropped, a little kept, more kept.
var shedKeeps = [][2]int{{0, 0}, {1, 0}, {3, 1}, {20, 5}}

// shedding is a Keep that sheds alone: it keeps the newest items finished
// items and the content of the newest content steps, and every skeleton
// and tombstone.
func shedding(items, content int) fold.Keep {
	return fold.Keep{Items: items, Content: content, Skeletons: fold.All, Tombstones: fold.TombstonesAll}
}

// forgetting is a Keep that forgets alone: it keeps every item and every
// step's content, the skeletons of the newest skeletons steps and the
// recent tombstones.
func forgetting(skeletons int) fold.Keep {
	return fold.Keep{Items: fold.All, Content: fold.All, Skeletons: skeletons, Tombstones: fold.TombstonesRecent}
}

// shedLogs are the logs the shedding laws are checked on: every fixture,
// a generated log, and each thread of a generated log of many threads.
func shedLogs(t *testing.T) map[string][]model.Record {
	logs := fixtures(t)
	// (A short run folds generated logs of a third the size: each split
	// folds the rest of the log again.)
	events, threaded := 1_500, 2_400
	if testing.Short() {
		events, threaded = 500, 800
	}
	logs["loggen"] = genRecords(loggen.Generate(events, 5))
	// Threads of a few runs each: a later run resends the thread's user
	// messages, which shedding must not bring back.
	for id, log := range loggen.ThreadFiles(threaded, 3, 9) {
		logs["loggen-threads/"+id] = genRecords(log)
	}
	return logs
}

// shedSplits are the split points tried on a log of n records: all of them
// for a short log, about 60 spread over a long one (30 in a short run: each
// split folds the rest of the log again for every Keep tried).
func shedSplits(n int) []int {
	spread := 60
	if testing.Short() {
		spread = 30
	}
	step := max(1, n/spread)
	var ks []int
	for k := 0; k <= n; k += step {
		ks = append(ks, k)
	}
	if ks[len(ks)-1] != n {
		ks = append(ks, n)
	}
	return ks
}

// The shedding laws, at split points of every log: fold the first k
// records, Trim shedding alone, fold the rest.
//
//   - Shed drops only completed items, completed steps' content and
//     messages nothing open or kept shows, and says how much it dropped
//     (checkShed);
//   - the shed fold then ends with the same steps (content aside), runs,
//     diagnostics, warnings and state as the fold that never shed, the
//     same items but those shed, and the same messages but those shed
//     (checkShedAgainst);
//   - a checkpoint taken before the Shed is not changed by it, and the
//     checkpoint law holds for the shed fold: export → restore, or
//     Checkpoint → FromCheckpoint, then folding on gives what folding on
//     gives.
func TestLawShed(t *testing.T) {
	for name, recs := range shedLogs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := foldAll(recs)
			head := fold.New(fold.Options{})
			done := 0
			for _, k := range shedSplits(len(recs)) {
				head.Apply(recs[done:k]...)
				done = k
				cp := head.Checkpoint()
				for i, keep := range shedKeeps {
					var f *fold.Fold
					cow := (k+i)%2 == 0
					if cow {
						f = fold.FromCheckpoint(cp, fold.Options{})
					} else {
						// A fold that never took a checkpoint copies nothing
						// before it changes it: the other path of Shed.
						f = foldAll(recs[:k])
					}
					where := fmt.Sprintf("split %d of %d, Shed(%d, %d)", k, len(recs), keep[0], keep[1])
					var pre *fold.Checkpoint
					var atPre []byte
					if cow {
						atPre = export(t, f)
						pre = f.Checkpoint()
					}
					before := captureFold(f)
					got := f.Trim(shedding(keep[0], keep[1])).Shed
					gone := checkShed(t, where, before, f, got, keep[0], keep[1])
					if again := f.Trim(shedding(keep[0], keep[1])).Shed; again != (fold.Shed{}) {
						t.Fatalf("%s: a second Shed dropped %+v", where, again)
					}
					if pre != nil {
						if got := export(t, fold.FromCheckpoint(pre, fold.Options{})); !bytes.Equal(got, atPre) {
							t.Fatalf("%s: Shed changed a checkpoint taken before it", where)
						}
					}
					foldsOnAlike(t, where+", shed", f, recs[k:])
					if pre != nil {
						if got := export(t, fold.FromCheckpoint(pre, fold.Options{})); !bytes.Equal(got, atPre) {
							t.Fatalf("%s: folding on after Shed changed a checkpoint taken before it", where)
						}
					}
					checkShedAgainst(t, where, want, f, gone, before.next)
				}
			}
		})
	}
}

// Shedding now and then while folding, as a live view does, keeps the same
// laws at the end.
func TestLawShedRepeatedly(t *testing.T) {
	for name, recs := range shedLogs(t) {
		t.Run(name, func(t *testing.T) {
			want := foldAll(recs)
			for _, every := range []int{1, 7, 50} {
				if every == 1 && len(recs) > 600 {
					continue // a Shed after each record of a long log finds nothing more
				}
				for _, keep := range shedKeeps {
					where := fmt.Sprintf("Shed(%d, %d) every %d records", keep[0], keep[1], every)
					f := fold.New(fold.Options{})
					gone := map[string]bool{}
					var next uint64
					var total fold.Shed
					for i := 0; i < len(recs); i += every {
						f.Apply(recs[i:min(i+every, len(recs))]...)
						before := captureFold(f)
						got := f.Trim(shedding(keep[0], keep[1])).Shed
						for id := range checkShed(t, where, before, f, got, keep[0], keep[1]) {
							gone[id] = true
						}
						next = max(next, before.next)
						total.Items += got.Items
						total.Steps += got.Steps
						total.Messages += got.Messages
					}
					if f.Shedded() != total {
						t.Fatalf("%s: Shedded() = %+v, the calls dropped %+v", where, f.Shedded(), total)
					}
					checkShedAgainst(t, where, want, f, gone, next)
				}
			}
		})
	}
}

// Threads.Trim sheds every thread and keeps each thread's title; a set's
// checkpoint taken after a Trim holds the shed folds, even for a thread
// that got no record since the set's previous checkpoint, and even when
// the Trim was called on the thread's fold itself.
func TestThreadsShed(t *testing.T) {
	recs := readAll(t, bytes.NewReader(loggen.GenerateThreads(6_000, 4, 3)))
	whole := fold.NewThreads(fold.Options{})
	whole.Apply("s", recs...)
	titles := map[string]string{}
	for _, th := range whole.List() {
		titles[th.ID] = th.Title()
		if titles[th.ID] == "" {
			t.Fatalf("thread %s has no title", th.ID)
		}
	}
	ts := fold.NewThreads(fold.Options{})
	var total fold.Shed
	for i := 0; i < len(recs); i += 211 {
		ts.Apply("s", recs[i:min(len(recs), i+211)]...)
		ts.Checkpoint() // caches a fold checkpoint for each thread
		var one fold.Shed
		if i%2 == 0 {
			one = ts.Trim(shedding(0, 0)).Shed
		} else {
			for _, th := range ts.List() {
				th.Title()
				s := th.Fold.Trim(shedding(0, 0)).Shed
				one.Items += s.Items
				one.Steps += s.Steps
				one.Messages += s.Messages
			}
		}
		total.Items += one.Items
		total.Steps += one.Steps
		total.Messages += one.Messages
		back := fold.ThreadsFromCheckpoint(ts.Checkpoint(), fold.Options{})
		if got, want := threadsExport(t, back), threadsExport(t, ts); got != want {
			t.Fatalf("after record %d: a checkpoint taken after Shed does not hold the shed folds", i)
		}
	}
	if total.Items == 0 || total.Steps == 0 || total.Messages == 0 {
		t.Fatalf("shedding to nothing dropped only %+v", total)
	}
	var sum fold.Shed
	for _, th := range ts.List() {
		if th.Title() != titles[th.ID] {
			t.Errorf("thread %s: title %q after shedding, want %q", th.ID, th.Title(), titles[th.ID])
		}
		s := th.Fold.Shedded()
		sum.Items += s.Items
		sum.Steps += s.Steps
		sum.Messages += s.Messages
	}
	if sum != total {
		t.Errorf("the threads' Shedded add up to %+v, the calls dropped %+v", sum, total)
	}
}

// Shedding an ACP session drops the output of its finished terminals with
// the steps that show them, keeps their exit codes, and keeps the plan
// item, which the next plan updates.
func TestShedACP(t *testing.T) {
	recs := fixtures(t)["acp/coding-session.jsonl"]
	f := foldAll(recs)
	const output = "schedule\\t0.015s" // as JSON writes it
	if !bytes.Contains(export(t, f), []byte(output)) {
		t.Fatalf("the session's terminal output %q is not in the fold", output)
	}
	exits := map[int]int{}
	for _, s := range f.Steps() {
		if s.ExitCode != nil {
			exits[s.Index] = *s.ExitCode
		}
	}
	if len(exits) == 0 {
		t.Fatal("no step has an exit code")
	}
	hasPlan := slices.ContainsFunc(f.Items(), func(it *model.Item) bool { return it.Kind == model.ItemPlan })
	got := f.Trim(shedding(0, 0)).Shed
	if got.Items == 0 || got.Steps == 0 || got.Messages != 0 {
		t.Fatalf("shedding to nothing dropped %+v", got)
	}
	if bytes.Contains(export(t, f), []byte(output)) {
		t.Fatalf("the terminal output %q survived shedding every step", output)
	}
	for i, code := range exits {
		if s := f.Steps()[i]; s.ExitCode == nil || *s.ExitCode != code || !s.Shed {
			t.Fatalf("step %d after Shed: exit code %v, shed %v; want %d, shed", i, s.ExitCode, s.Shed, code)
		}
	}
	if plan := slices.ContainsFunc(f.Items(), func(it *model.Item) bool { return it.Kind == model.ItemPlan }); plan != hasPlan {
		t.Fatalf("plan item there before Shed: %v, after: %v", hasPlan, plan)
	}
}
