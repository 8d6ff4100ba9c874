package fold_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
)

// Law 1 for a whole set of threads: at every split point, export → JSON →
// RestoreThreads → fold the rest gives the set that folded everything,
// with the same updates on the way; exporting changes nothing in the set,
// the same state exports to the same bytes, and a snapshot never changes
// after it is taken.
func TestLawThreadsExportEverySplit(t *testing.T) {
	for name, steps := range threadsInputs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			whole := fold.NewThreads(fold.Options{})
			wantUps := make([]string, len(steps))
			for i, st := range steps {
				wantUps[i] = applyStep(whole, st)
			}
			want := threadsState(t, whole)
			if whole.Len() < 2 && !strings.HasPrefix(name, "acp/") {
				t.Fatalf("the input has %d threads; it is here for its many", whole.Len())
			}

			head := fold.NewThreads(fold.Options{})
			var earlier []fold.ThreadsSnapshot
			var frozen [][]byte
			k := 0
			for i, at := range stepSplits(steps) {
				for ; k < at; k++ {
					if got := applyStep(head, steps[k]); got != wantUps[k] {
						t.Fatalf("step %d: a set that exported on the way updates differently:\n%s\n%s", k, got, wantUps[k])
					}
				}
				snap, wire := exportThreads(t, head)
				if _, again := exportThreads(t, head); !bytes.Equal(again, wire) {
					t.Fatalf("split %d: the same set exports to different bytes", at)
				}
				if i%8 == 0 {
					earlier, frozen = append(earlier, snap), append(frozen, bytes.Clone(wire))
				}
				tail := restoreThreads(t, wire)
				for j := at; j < len(steps); j++ {
					if got := applyStep(tail, steps[j]); got != wantUps[j] {
						t.Fatalf("split %d of %d, step %d: the restored set updates\n%s\nwant\n%s", at, len(steps), j, got, wantUps[j])
					}
				}
				if got := threadsState(t, tail); got != want {
					t.Fatalf("split %d of %d: the restored set differs from the uninterrupted one:\n%s\nwant\n%s", at, len(steps), fuzzClip([]byte(got), 3000), fuzzClip([]byte(want), 3000))
				}
			}
			if got := threadsState(t, head); got != want {
				t.Fatal("the set that exported on the way differs from the one that did not")
			}
			for i, snap := range earlier {
				if again, _ := json.Marshal(snap); !bytes.Equal(again, frozen[i]) {
					t.Fatalf("snapshot %d changed after more folding", i)
				}
			}
		})
	}
}

// shedForCheckpoint sheds a set as replay.ShedForCheckpoint does.
func shedForCheckpoint(ts *fold.Threads) {
	ts.Trim(fold.Keep{Items: 0, Content: 1, Skeletons: fold.All, Tombstones: fold.TombstonesRecent})
}

// Law 1 for a shed set: a set shed before its export and restored folds
// on as the shed set itself does, and keeps its titles (which its shed
// folds may no longer hold).
func TestLawThreadsExportShed(t *testing.T) {
	for name, steps := range threadsInputs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, at := range stepSplits(steps) {
				orig := fold.NewThreads(fold.Options{})
				for _, st := range steps[:at] {
					applyStep(orig, st)
				}
				shedForCheckpoint(orig)
				_, wire := exportThreads(t, orig)
				tail := restoreThreads(t, wire)
				for j := at; j < len(steps); j++ {
					if got, want := applyStep(tail, steps[j]), applyStep(orig, steps[j]); got != want {
						t.Fatalf("split %d of %d, step %d: the restored shed set updates\n%s\nwant\n%s", at, len(steps), j, got, want)
					}
				}
				if got, want := threadsState(t, tail), threadsState(t, orig); got != want {
					t.Fatalf("split %d of %d: the restored shed set differs from the shed one:\n%s\nwant\n%s", at, len(steps), fuzzClip([]byte(got), 3000), fuzzClip([]byte(want), 3000))
				}
			}
		})
	}
}

// A title survives a shed fold's snapshot even though the fold no longer
// holds the message it came from.
func TestThreadsExportKeepsShedTitle(t *testing.T) {
	steps := threadsInputs(t)["routing"]
	ts := fold.NewThreads(fold.Options{})
	for _, st := range steps {
		applyStep(ts, st)
	}
	shedForCheckpoint(ts)
	a := ts.List()[0]
	if a.Title() != "first question" {
		t.Fatalf("title %q", a.Title())
	}
	_, wire := exportThreads(t, ts)
	back := restoreThreads(t, wire)
	if got := back.List()[0].Title(); got != "first question" {
		t.Fatalf("restored title %q, want the one read before shedding", got)
	}
}

// A snapshot that does not hold together is refused with an error.
func TestRestoreThreadsRefuses(t *testing.T) {
	ts := fold.NewThreads(fold.Options{})
	for _, st := range threadsInputs(t)["two sources"][:120] {
		applyStep(ts, st)
	}
	_, wire := exportThreads(t, ts)
	good := func() fold.ThreadsSnapshot {
		var s fold.ThreadsSnapshot
		if err := json.Unmarshal(wire, &s); err != nil {
			t.Fatal(err)
		}
		if len(s.Threads) < 3 || len(s.Sources) != 2 || len(s.Sources[1].Requests) == 0 {
			t.Fatalf("the snapshot has %d threads, %d sources; the cases need 3, 2 and a request in flight", len(s.Threads), len(s.Sources))
		}
		return s
	}
	if _, err := fold.RestoreThreads(good(), fold.Options{}); err != nil {
		t.Fatalf("the unchanged snapshot: %v", err)
	}
	other := func(s *fold.ThreadsSnapshot, source string) int {
		for i, th := range s.Threads {
			if th.Source != source {
				return i
			}
		}
		t.Fatal("no thread of another source")
		return 0
	}
	for _, c := range []struct {
		name  string
		spoil func(s *fold.ThreadsSnapshot)
	}{
		{"unknown version", func(s *fold.ThreadsSnapshot) { s.Version = 2 }},
		{"no version", func(s *fold.ThreadsSnapshot) { s.Version = 0 }},
		{"last out of range", func(s *fold.ThreadsSnapshot) { s.Last = len(s.Threads) }},
		{"last below -1", func(s *fold.ThreadsSnapshot) { s.Last = -2 }},
		{"open run out of range", func(s *fold.ThreadsSnapshot) { s.Sources[0].Open = 99 }},
		{"latest thread out of range", func(s *fold.ThreadsSnapshot) { s.Sources[0].Last = math.MinInt }},
		{"unnamed thread out of range", func(s *fold.ThreadsSnapshot) { s.Sources[1].Unnamed = math.MaxInt }},
		{"route to another source's thread", func(s *fold.ThreadsSnapshot) { s.Sources[0].Last = other(s, s.Sources[0].Source) }},
		{"request to no thread", func(s *fold.ThreadsSnapshot) { s.Sources[1].Requests[0].Thread = -1 }},
		{"request out of range", func(s *fold.ThreadsSnapshot) { s.Sources[1].Requests[0].Thread = len(s.Threads) }},
		{"request to another source's thread", func(s *fold.ThreadsSnapshot) {
			s.Sources[1].Requests[0].Thread = other(s, s.Sources[1].Source)
		}},
		{"request twice", func(s *fold.ThreadsSnapshot) {
			s.Sources[1].Requests = append(s.Sources[1].Requests, s.Sources[1].Requests[0])
		}},
		{"source twice", func(s *fold.ThreadsSnapshot) { s.Sources = append(s.Sources, s.Sources[0]) }},
		{"thread of no source", func(s *fold.ThreadsSnapshot) { s.Sources = s.Sources[:1] }},
		{"two threads of one id", func(s *fold.ThreadsSnapshot) {
			s.Threads[1].Source, s.Threads[1].ID = s.Threads[0].Source, s.Threads[0].ID
		}},
		{"negative records", func(s *fold.ThreadsSnapshot) { s.Threads[0].Records = -1 }},
		{"fold of another version", func(s *fold.ThreadsSnapshot) { s.Threads[1].Fold.Version = 7 }},
		{"fold not JSON", func(s *fold.ThreadsSnapshot) { s.Threads[1].Fold.State = []byte(`{"applied":`) }},
		{"fold of the wrong shape", func(s *fold.ThreadsSnapshot) { s.Threads[1].Fold.State = []byte(`{"applied":"many"}`) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := good()
			c.spoil(&s)
			ts, err := fold.RestoreThreads(s, fold.Options{})
			if err == nil || ts != nil {
				t.Fatalf("restored (%v)", err)
			}
			t.Log(err)
		})
	}
}
