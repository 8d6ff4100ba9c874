package sources

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// The subagent the fixture's codebase_investigator call ran is read with
// the session: its steps are the session's, under that call, which says
// it ran the subagent.
func TestGeminiSubagentSteps(t *testing.T) {
	steps := foldSteps(t, readSessionFile(t, geminiFixture))
	const call = "codebase_investigator_1745140694001_1"
	const agent = "c41d9a77-2b8e-4f03-9d6a-5e1f7b3a0c92"
	if len(steps) != 9 {
		t.Fatalf("%d steps, want the session's 7 and the subagent's 2", len(steps))
	}
	if s := steps[6]; s.ToolCallID != call || s.Subagent != "codebase_investigator" || s.Depth != 0 || s.Status != model.StatusCompleted {
		t.Errorf("the call: %s subagent %q depth %d %s", s.ToolCallID, s.Subagent, s.Depth, s.Status)
	}
	for i, id := range []string{agent + "#0-0", agent + "#1-0"} {
		s := steps[7+i]
		if s.ToolCallID != id || s.ParentToolCallID != call || s.Depth != 1 || s.Status != model.StatusCompleted {
			t.Errorf("the subagent's step %d: %s under %q depth %d %s", i, s.ToolCallID, s.ParentToolCallID, s.Depth, s.Status)
		}
	}
	if s := steps[7]; s.Category != model.CategorySearch || s.Location != "money/**/*_test.go" {
		t.Errorf("the subagent's glob: %s %q", s.Category, s.Location)
	}
}

// lineWritten is when Gemini CLI wrote a line of a session file: the
// latest time it holds (a message written again holds the times its
// calls were done; a $set, lastUpdated; the first record, startTime).
func lineWritten(t *testing.T, ln []byte) string {
	t.Helper()
	var l struct {
		Timestamp string `json:"timestamp"`
		StartTime string `json:"startTime"`
		Set       struct {
			LastUpdated string `json:"lastUpdated"`
		} `json:"$set"`
		ToolCalls []struct {
			Timestamp string `json:"timestamp"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(ln, &l); err != nil {
		t.Fatalf("%s: %v", ln, err)
	}
	at := max(l.Timestamp, l.StartTime, l.Set.LastUpdated)
	for _, c := range l.ToolCalls {
		at = max(at, c.Timestamp)
	}
	return at
}

// A session whose subagent writes as it runs, each line of either file
// appended when Gemini CLI wrote it and the tail looking after each,
// gives the records of the session read whole afterwards.
func TestGeminiSubagentsFollowed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chats")
	var lines []timedLine
	err := filepath.WalkDir(geminiChats, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(geminiChats, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, nil, 0o644); err != nil {
			return err
		}
		for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
			if len(bytes.TrimSpace(ln)) > 0 {
				lines = append(lines, timedLine{to, lineWritten(t, ln), ln})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, filepath.Base(geminiFixture))
	// Each file's lines keep their order; between files, time decides.
	slices.SortStableFunc(lines, func(a, b timedLine) int {
		if a.file == b.file || a.at == b.at {
			return 0
		}
		if a.at < b.at {
			return -1
		}
		return 1
	})
	got := followLines(t, main, lines)
	whole := readSessionFile(t, main)
	sameSessionRecords(t, got, whole)
	if len(foldSteps(t, got)) != 9 {
		t.Fatal("the followed session's steps are not the subagent's too")
	}
}

// A Gemini session with a folder of subagents gives no place to take up a
// tail from; the same session without one does.
func TestGeminiSubagentsNoTakeUp(t *testing.T) {
	data, err := os.ReadFile(geminiFixture)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(bytes.IndexByte(data, '\n') + 1)
	if _, err := TailStartAt(geminiFixture, end, 0); !errors.Is(err, ErrNotAfterRecord) {
		t.Fatalf("with subagents: %v, want ErrNotAfterRecord", err)
	}
	alone := filepath.Join(t.TempDir(), filepath.Base(geminiFixture))
	writeFile(t, alone, data)
	if _, err := TailStartAt(alone, end, 0); err != nil {
		t.Fatalf("without: %v", err)
	}
}
