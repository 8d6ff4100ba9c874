package sources

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// codexChildFixture is the rollout of the subagent the fixture's session
// spawns, beside it: forked, so it writes the session's history first.
var codexChildFixture = filepath.Join(filepath.Dir(codexFixture),
	"rollout-2026-02-23T13-05-02-019c8a69-4e5f-7a60-b1c2-d3e4f5a6b7c8.jsonl")

// A rollout read from its file has its subagent's steps among its own,
// under the step of the call that spawned it, and none of the history
// the fork wrote again.
func TestCodexSubagentSteps(t *testing.T) {
	steps := foldSteps(t, readSessionFile(t, codexFixture))
	if len(steps) != 13 {
		for _, s := range steps {
			t.Logf("%s %s", s.ToolCallID, s.Label())
		}
		t.Fatalf("%d steps, want the session's 12 and the subagent's one", len(steps))
	}
	for i, s := range steps {
		child := s.ToolCallID == "call_grep"
		if child != (s.ParentToolCallID == "call_spawn") || child != (s.Depth == 1) || s.Status == model.StatusRunning {
			t.Errorf("step %d %s: under %q depth %d %s", i+1, s.ToolCallID, s.ParentToolCallID, s.Depth, s.Status)
		}
		if (s.ToolCallID == "call_spawn") != (s.Subagent == "Lorentz") {
			t.Errorf("step %d %s: subagent %q", i+1, s.ToolCallID, s.Subagent)
		}
	}
	if steps[12].ToolCallID != "call_grep" {
		t.Errorf("the subagent's step is %s, want last (it ran after the wait began)", steps[12].ToolCallID)
	}

	// Read from bytes, the file is not known: the session alone.
	data, err := os.ReadFile(codexFixture)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(foldSteps(t, alone)); n != 12 {
		t.Errorf("read from bytes: %d steps, want the session's 12", n)
	}
}

// The children are looked for in the dated folders from the session's
// day on: a subagent that started after midnight is found in the next
// day's folder, and one in an earlier day's folder is not its.
func TestCodexSubagentNextDay(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	parent := filepath.Join(root, "2026", "02", "23", filepath.Base(codexFixture))
	copyTo(t, codexFixture, parent)
	copyTo(t, codexChildFixture, filepath.Join(root, "2026", "03", "01", filepath.Base(codexChildFixture)))
	if n := len(foldSteps(t, readSessionFile(t, parent))); n != 13 {
		t.Errorf("child in a later day's folder: %d steps, want 13", n)
	}
	if err := os.RemoveAll(filepath.Join(root, "2026", "03")); err != nil {
		t.Fatal(err)
	}
	copyTo(t, codexChildFixture, filepath.Join(root, "2025", "12", "31", filepath.Base(codexChildFixture)))
	if n := len(foldSteps(t, readSessionFile(t, parent))); n != 12 {
		t.Errorf("child in an earlier day's folder: %d steps, want the session's 12", n)
	}
}

func copyTo(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, b)
}

// A session whose subagent writes as it runs, each line of both rollouts
// appended when its time comes and the tail looking after each, gives the
// records of the session read whole afterwards.
func TestCodexSubagentsFollowed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "02", "23")
	var lines []timedLine
	for _, p := range []string{codexFixture, codexChildFixture} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, filepath.Base(p))
		copyTo(t, os.DevNull, to)
		for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
			var l struct {
				Timestamp string `json:"timestamp"`
			}
			if len(ln) > 0 && json.Unmarshal(ln, &l) == nil {
				lines = append(lines, timedLine{to, l.Timestamp, ln})
			}
		}
	}
	main := filepath.Join(dir, filepath.Base(codexFixture))
	// Written in time order; the session's own lines first at a tie.
	slices.SortStableFunc(lines, func(a, b timedLine) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		case (a.file == main) == (b.file == main):
			return 0
		case a.file == main:
			return -1
		}
		return 1
	})
	tl := newTailer(main, TailOptions{Poll: time.Hour})
	tl.check()
	var got []model.Record
	for _, ln := range lines {
		appendFile(t, ln.file, string(ln.text))
		tl.check()
		got = append(got, tl.pending...)
		tl.pending = nil
	}
	whole := readSessionFile(t, main)
	sameSessionRecords(t, got, whole)
	if len(foldSteps(t, got)) != 13 {
		t.Fatal("the followed session's steps are not its subagent's too")
	}
}

// A rollout whose subagent's rollout was found gives no place to take up
// a tail from (where the child's lines went depends on when they were
// read); the same rollout without it beside it does.
func TestCodexSubagentsNoTakeUp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "02", "23")
	main := filepath.Join(dir, filepath.Base(codexFixture))
	copyTo(t, codexFixture, main)
	data, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(len(data))
	take := func() bool {
		from, err := TailStartAt(main, end, uint64(len(readSessionFile(t, main))))
		if err != nil {
			t.Fatal(err)
		}
		tl := newTailer(main, TailOptions{Poll: time.Hour, From: &from})
		tl.check()
		return tl.format == tailTranslated && len(tl.ready) == 0
	}
	if !take() {
		t.Error("without its subagent's rollout: not taken up")
	}
	copyTo(t, codexChildFixture, filepath.Join(dir, filepath.Base(codexChildFixture)))
	if take() {
		t.Error("with its subagent's rollout: taken up")
	}
}
