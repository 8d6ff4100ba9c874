package fold_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// genRecords decodes a generated JSON Lines log as a source would: one
// record per line, numbered from 1, timed by the event's own timestamp.
func genRecords(log []byte) []model.Record {
	lines := bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
	recs := make([]model.Record, len(lines))
	for i, ln := range lines {
		ev := agui.Decode(ln)
		at, _ := agui.Time(ev)
		recs[i] = model.Record{Seq: uint64(i + 1), At: at, Proto: model.ProtoAGUI, Raw: ln, Event: ev}
	}
	return recs
}

// TestGeneratedLogFoldsClean holds the benchmark log to being valid AG-UI:
// the fold finds no diagnostic and no warning in it, ends with every run,
// item and step finished, and sees what the generator says it wrote (runs
// chained by parentRunId, all ten categories, screenshots, exit codes).
func TestGeneratedLogFoldsClean(t *testing.T) {
	cases := []struct {
		n    int
		seed int64
	}{{300, 1}, {5_000, 7}, {30_000, 3}, {100_000, 1}}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,seed=%d", c.n, c.seed), func(t *testing.T) {
			if c.n > 30_000 && testing.Short() {
				t.Skip("large log in -short mode")
			}
			recs := genRecords(loggen.Generate(c.n, c.seed))
			f := fold.New(fold.Options{})
			// Apply in uneven batches, as a source delivers them.
			for len(recs) > 0 {
				k := min(len(recs), 1+len(recs)%700)
				if _, err := f.Apply(recs[:k]...); err != nil {
					t.Fatalf("Apply: %v", err)
				}
				recs = recs[k:]
			}
			for i, d := range f.Diagnostics() {
				if i == 5 {
					t.Errorf("… %d diagnostics in all", len(f.Diagnostics()))
					break
				}
				t.Errorf("diagnostic: %+v", d)
			}
			for i, w := range f.Warnings() {
				if i == 5 {
					t.Errorf("… %d warnings in all", len(f.Warnings()))
					break
				}
				t.Errorf("warning: %+v", w)
			}

			runs := f.Runs()
			if len(runs) == 0 {
				t.Fatal("no runs")
			}
			for i, r := range runs {
				if r.Status != model.StatusCompleted || r.ThreadID != f.ThreadID() {
					t.Errorf("run %d: status %s, thread %q (fold's %q)", i, r.Status, r.ThreadID, f.ThreadID())
				}
				if i > 0 && r.ParentRunID != runs[i-1].RunID {
					t.Errorf("run %d: parentRunId %q, want the previous run %q", i, r.ParentRunID, runs[i-1].RunID)
				}
			}
			for _, it := range f.Items() {
				if !it.Status.Done() {
					t.Errorf("item %d (%s %s) is still %s", it.Seq, it.Kind, it.ID, it.Status)
				}
			}
			cats := map[model.Category]int{}
			shots, exits := 0, 0
			for _, s := range f.Steps() {
				cats[s.Category]++
				shots += len(s.Screenshots)
				if s.ExitCode != nil {
					exits++
				}
				if !s.Status.Done() || !s.HasResult || s.ArgsJSON == nil {
					t.Errorf("step %d (%s): status %s, result %v, args valid JSON %v", s.Index, s.ToolName, s.Status, s.HasResult, s.ArgsJSON != nil)
				}
				if s.Location == "" && s.Category != model.CategoryThink && s.Category != model.CategoryOther {
					t.Errorf("step %d (%s) has no location", s.Index, s.Category)
				}
				for _, img := range s.Screenshots {
					if img.Truncated || len(img.Data) < 2_048 || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
						t.Errorf("step %d: screenshot of %d bytes, truncated %v", s.Index, len(img.Data), img.Truncated)
					}
				}
			}
			var state struct{ Progress, Turn *int }
			if err := json.Unmarshal(f.State(), &state); err != nil || state.Progress == nil || state.Turn == nil {
				t.Errorf("state %s: %v", f.State(), err)
			}
			t.Logf("%d records: %d runs, %d items, %d steps, %d screenshots, %d exit codes, categories %v",
				f.LastSeq(), len(runs), len(f.Items()), len(f.Steps()), shots, exits, cats)
			if c.n >= 30_000 {
				if len(runs) < 3 || len(cats) != len(model.Categories) || shots == 0 || exits == 0 {
					t.Errorf("a large log should have several runs, all categories, screenshots and exit codes")
				}
			}
		})
	}
}

// TestGeneratedLogControl makes sure the clean result above means something:
// the same log with one TEXT_MESSAGE_START dropped is reported.
func TestGeneratedLogControl(t *testing.T) {
	log := loggen.Generate(2_000, 1)
	i := bytes.Index(log, []byte(`{"type":"TEXT_MESSAGE_START"`))
	j := i + bytes.IndexByte(log[i:], '\n') + 1
	broken := append(bytes.Clone(log[:i]), log[j:]...)
	f := fold.New(fold.Options{})
	if _, err := f.Apply(genRecords(broken)...); err != nil {
		t.Fatal(err)
	}
	if len(f.Diagnostics()) == 0 {
		t.Fatal("no diagnostic for content of a message that was never started")
	}
}
