package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

const demoPath = "../../../assets/demo.jsonl"

// readDemo reads the committed recording as agentwatch does.
func readDemo(t *testing.T) ([]byte, []model.Record) {
	t.Helper()
	data, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	r := sources.NewReader(bytes.NewReader(data))
	var recs []model.Record
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	return data, recs
}

func foldDemo(t *testing.T, recs []model.Record) *fold.Fold {
	t.Helper()
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatalf("fold: %v", err)
	}
	return f
}

// The committed file is exactly what the generator writes, so it cannot
// drift from it: after changing the generator, run go generate.
func TestDemoIsGenerated(t *testing.T) {
	data, _ := readDemo(t)
	if got := Generate(); !bytes.Equal(got, data) {
		t.Fatalf("%s differs from the generator's output (%d vs %d bytes); regenerate it with `go generate ./internal/testkit/demogen`",
			demoPath, len(data), len(got))
	}
	if !bytes.Equal(Generate(), Generate()) {
		t.Fatal("the generator is not deterministic")
	}
	if len(data) > 400<<10 {
		t.Errorf("demo is %d bytes, want at most 400 KB", len(data))
	}
}

// The demo is valid AG-UI 1.0: it folds without a diagnostic or a warning,
// and the state the fold ends with is the one the generator tracked.
func TestDemoFoldsCleanly(t *testing.T) {
	_, recs := readDemo(t)
	f := foldDemo(t, recs)
	for _, d := range f.Diagnostics() {
		t.Errorf("diagnostic: #%d %s: %s [%s]", d.Seq, d.Type, d.Message, d.Rule)
	}
	for _, w := range f.Warnings() {
		t.Errorf("warning: #%d %s: %s", w.Seq, w.Type, w.Message)
	}
	var got, want any
	if err := json.Unmarshal(f.State(), &got); err != nil {
		t.Fatalf("state: %v", err)
	}
	if err := json.Unmarshal(marshal(story().state), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("folded state\n%s\nwant\n%s", f.State(), marshal(story().state))
	}
}

// The demo shows what the agent computer can show: every category, with a
// location, a failed step, screenshots, coloured terminal output, a diff.
func TestDemoSteps(t *testing.T) {
	_, recs := readDemo(t)
	f := foldDemo(t, recs)
	steps := f.Steps()
	if len(steps) < 25 {
		t.Errorf("%d steps, want at least 25", len(steps))
	}
	seen := map[model.Category]bool{}
	var shots, failed, colours, diffs int
	for _, s := range steps {
		seen[s.Category] = true
		if s.Location == "" {
			t.Errorf("step %d (%s) has no location", s.Index, s.ToolName)
		}
		if !s.HasResult || !s.Status.Done() {
			t.Errorf("step %d (%s) is %s without a result", s.Index, s.Label(), s.Status)
		}
		if d := s.Duration(); d < 300*time.Millisecond || d > 20*time.Second {
			t.Errorf("step %d (%s) took %v, want 0.3–20 s", s.Index, s.Label(), d)
		}
		if s.Status == model.StatusFailed {
			failed++
			if s.Category != model.CategoryExecute || s.ExitCode == nil || *s.ExitCode != 1 {
				t.Errorf("failed step %d is not a command with exit code 1", s.Index)
			}
		}
		if s.Category == model.CategoryExecute && strings.Contains(s.Result, "\x1b[") {
			colours++
		}
		if s.Category == model.CategoryEdit && strings.Contains(string(s.ArgsJSON), `"--- a/`) && strings.Contains(string(s.ArgsJSON), `\n@@ -`) {
			diffs++
		}
		for _, img := range s.Screenshots {
			if img.MimeType != "image/png" {
				t.Errorf("step %d: screenshot is %q", s.Index, img.MimeType)
			}
			m, err := png.Decode(bytes.NewReader(img.Data))
			if err != nil {
				t.Errorf("step %d: screenshot: %v", s.Index, err)
				continue
			}
			if b := m.Bounds(); b.Dx() != shotW || b.Dy() != shotH {
				t.Errorf("step %d: screenshot is %v", s.Index, b)
			}
			shots++
		}
	}
	for _, c := range model.Categories {
		if !seen[c] {
			t.Errorf("no step of category %s", c)
		}
	}
	if shots < 3 {
		t.Errorf("%d PNG screenshots, want at least 3", shots)
	}
	if failed == 0 {
		t.Error("no failed step")
	}
	if colours == 0 {
		t.Error("no command output with SGR colours")
	}
	if diffs == 0 {
		t.Error("no edit with a unified diff")
	}
}

// Two runs, the second continuing the first and carrying the follow-up.
func TestDemoRuns(t *testing.T) {
	_, recs := readDemo(t)
	f := foldDemo(t, recs)
	runs := f.Runs()
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	if runs[0].ParentRunID != "" || runs[1].ParentRunID != runs[0].RunID {
		t.Errorf("runs %q (parent %q) and %q (parent %q): the second must continue the first",
			runs[0].RunID, runs[0].ParentRunID, runs[1].RunID, runs[1].ParentRunID)
	}
	for _, r := range runs {
		if r.Status != model.StatusCompleted {
			t.Errorf("run %s is %s", r.RunID, r.Status)
		}
	}
	var users, reasoning int
	for _, m := range f.Messages() {
		switch m.Role {
		case "user":
			users++
		case "reasoning":
			reasoning++
		}
	}
	if users != 2 || reasoning == 0 {
		t.Errorf("%d user and %d reasoning messages, want 2 and some", users, reasoning)
	}
}

// The recording has realistic timing: 2–4 minutes in all, every event
// stamped, streamed text 20–80 ms apart.
func TestDemoPacing(t *testing.T) {
	_, recs := readDemo(t)
	for _, r := range recs {
		var ev struct {
			Timestamp *int64 `json:"timestamp"`
		}
		if err := json.Unmarshal(r.Raw, &ev); err != nil || ev.Timestamp == nil {
			t.Fatalf("event %d has no timestamp: %s", r.Seq, r.Raw)
		}
		if r.At.UnixMilli() != *ev.Timestamp {
			t.Fatalf("event %d: record time %v, timestamp %d", r.Seq, r.At, *ev.Timestamp)
		}
	}
	if d := recs[len(recs)-1].At.Sub(recs[0].At); d < 2*time.Minute || d > 4*time.Minute {
		t.Errorf("the demo lasts %v, want 2–4 minutes", d)
	}
	var prev model.Record
	for _, r := range recs {
		if r.At.Before(prev.At) {
			t.Errorf("event %d goes back in time", r.Seq)
		}
		if strings.Contains(string(r.Raw), `"TEXT_MESSAGE_CONTENT"`) && strings.Contains(string(prev.Raw), `"TEXT_MESSAGE_CONTENT"`) {
			if gap := r.At.Sub(prev.At); gap < 20*time.Millisecond || gap > 80*time.Millisecond {
				t.Errorf("text deltas %d and %d are %v apart", prev.Seq, r.Seq, gap)
			}
		}
		prev = r
	}
}
