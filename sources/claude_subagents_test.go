package sources

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// subagentProject is the fixture project whose session runs subagents:
// one with a nested one (subagents/, with .meta.json), one of the older
// flat layout (agent-f00d.jsonl, no .meta.json), one still at work.
const subagentProject = "../testdata/claude/projects/-home-dev-api"

const subagentSession = "c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8"

// readSessionFile reads a session file as the headless commands do: from
// the file, so its subagents beside it are found.
func readSessionFile(t *testing.T, path string) []model.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// foldSteps folds records as one thread and returns its steps.
func foldSteps(t *testing.T, recs []model.Record) []*model.Step {
	t.Helper()
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("session", recs...)
	list := ts.List()
	if len(list) != 1 {
		t.Fatalf("%d threads, want the session alone", len(list))
	}
	if d := list[0].Fold.Diagnostics(); len(d) > 0 {
		t.Fatalf("the session folds with problems: %v", d)
	}
	return list[0].Fold.Steps()
}

// A subagent's steps are the session's, each under the step whose call
// started its subagent, nested agents one deeper; the step that started
// one says so. Steps of the subagent still at work are there, running.
func TestClaudeSubagentSteps(t *testing.T) {
	steps := foldSteps(t, readSessionFile(t, filepath.Join(subagentProject, subagentSession+".jsonl")))
	type want struct {
		call, parent string
		depth        int
		status       model.Status
		subagent     string
	}
	wants := []want{
		{"toolu_t1", "", 0, model.StatusCompleted, "general-purpose"},
		{"toolu_s1", "toolu_t1", 1, model.StatusCompleted, ""},
		{"toolu_s2", "toolu_t1", 1, model.StatusCompleted, "Explore"},
		{"toolu_n1", "toolu_s2", 2, model.StatusCompleted, ""},
		{"toolu_s3", "toolu_t1", 1, model.StatusCompleted, ""},
		{"toolu_t2", "", 0, model.StatusCompleted, "subagent"},
		{"toolu_f1", "toolu_t2", 1, model.StatusCompleted, ""},
		{"toolu_t3", "", 0, model.StatusRunning, "general-purpose"},
		{"toolu_g1", "toolu_t3", 1, model.StatusRunning, ""},
	}
	if len(steps) != len(wants) {
		for _, s := range steps {
			t.Logf("%s %s", s.ToolCallID, s.Label())
		}
		t.Fatalf("%d steps, want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		if s.ToolCallID != w.call || s.ParentToolCallID != w.parent || s.Depth != w.depth || s.Status != w.status || s.Subagent != w.subagent {
			t.Errorf("step %d: %s under %q depth %d %s subagent %q; want %s under %q depth %d %s subagent %q", i+1,
				s.ToolCallID, s.ParentToolCallID, s.Depth, s.Status, s.Subagent, w.call, w.parent, w.depth, w.status, w.subagent)
		}
	}
	if edit := steps[4]; edit.Category != model.CategoryEdit || !bytes.Contains([]byte(edit.Result), []byte("+\tw.WriteHeader(pool.Health())")) {
		t.Errorf("the subagent's Edit: %s %q", edit.Category, edit.Result)
	}
}

// timedLine is a line of one of a session's files, with its time.
type timedLine struct {
	file string
	at   string
	text []byte
}

// followLines appends each line to its file in turn, the tail of the
// session at main looking after each, and returns what the tail made.
func followLines(t *testing.T, main string, lines []timedLine) []model.Record {
	t.Helper()
	tl := newTailer(main, TailOptions{Poll: time.Hour})
	tl.check()
	var got []model.Record
	for _, ln := range lines {
		appendFile(t, ln.file, string(ln.text))
		tl.check()
		got = append(got, tl.pending...)
		tl.pending = nil
	}
	return got
}

// A session whose subagents write as it runs, each line appended when its
// time comes and the tail looking after each, gives the records of the
// session read whole afterwards: a subagent's lines as they are written,
// before the result of its call.
func TestClaudeSubagentsFollowed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "-home-dev-api")
	var lines []timedLine
	err := filepath.WalkDir(subagentProject, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(subagentProject, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if filepath.Ext(p) == ".json" {
			return os.WriteFile(to, data, 0o644) // a subagent's .meta.json is there when it starts
		}
		if err := os.WriteFile(to, nil, 0o644); err != nil {
			return err
		}
		for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
			var l struct {
				Timestamp string `json:"timestamp"`
			}
			if len(ln) > 0 && json.Unmarshal(ln, &l) == nil {
				lines = append(lines, timedLine{to, l.Timestamp, ln})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, subagentSession+".jsonl")
	// Written in time order; the session's own lines first at a tie.
	slices.SortStableFunc(lines, func(a, b timedLine) int {
		if a.at != b.at {
			if a.at < b.at {
				return -1
			}
			return 1
		}
		if (a.file == main) != (b.file == main) {
			if a.file == main {
				return -1
			}
			return 1
		}
		return 0
	})
	got := followLines(t, main, lines)
	whole := readSessionFile(t, main)
	sameSessionRecords(t, got, whole)
	if len(foldSteps(t, got)) != 9 {
		t.Fatal("the followed session's steps are not the subagents' too")
	}
}

// A session with a folder of subagents gives no place to take up a tail
// from (where its subagents' lines went depends on when they were read);
// the same session without one does.
func TestClaudeSubagentsNoTakeUp(t *testing.T) {
	path := filepath.Join(subagentProject, subagentSession+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(bytes.IndexByte(data, '\n') + 1)
	if _, err := TailStartAt(path, end, 2); !errors.Is(err, ErrNotAfterRecord) {
		t.Fatalf("with subagents: %v, want ErrNotAfterRecord", err)
	}
	alone := filepath.Join(t.TempDir(), subagentSession+".jsonl")
	writeFile(t, alone, data)
	if _, err := TailStartAt(alone, end, 2); err != nil {
		t.Fatalf("without: %v", err)
	}
}
