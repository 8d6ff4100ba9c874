package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// acpRecording reads one of the ACP recordings in testdata/acp.
func acpRecording(t *testing.T, name string) []model.Record {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "acp", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadACPRecording(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// --plain names an ACP session's runs by their number in the session, not
// by the JSON-RPC ids of their prompts (2, 4, 5, 6, 7 in the recording).
func TestPlainACPRunNames(t *testing.T) {
	want := []string{
		"run 1 started", "run 1 completed (end_turn)",
		"run 2 started", "run 2 cancelled",
		"run 3 started", "run 3 completed (refusal)",
		"run 4 started", "run 4 completed (max_tokens)",
		"run 5 started", "run 5 failed: model overloaded [-32603]",
	}
	for _, oneByOne := range []bool{true, false} {
		var runs []string
		for _, l := range printPlain(t, acpRecording(t, "coding-session.jsonl"), oneByOne) {
			if strings.HasPrefix(l, "run ") {
				runs = append(runs, l)
			}
		}
		if !slices.Equal(runs, want) {
			t.Errorf("one by one %v: run lines\n%s\nwant\n%s", oneByOne, strings.Join(runs, "\n"), strings.Join(want, "\n"))
		}
	}
}

// --plain says each permission request in words, when it waits and when
// it is answered, in the order things happened: before the end of its run.
func TestPlainACPPermissionLines(t *testing.T) {
	want := []string{
		"run 1 started",
		"permission · Edit internal/schedule/length.go? · waiting for you: Allow, Always allow edits, Reject",
		"permission · Edit internal/schedule/length.go? · allowed once",
		"run 1 completed (end_turn)",
		"run 2 started",
		"permission · Read README.md? · waiting for you: Allow, Reject",
		"permission · Read README.md? · cancelled",
		"run 2 cancelled",
	}
	got := printPlain(t, acpRecording(t, "coding-session.jsonl"), true)
	var lines []string
	for _, l := range got {
		if strings.HasPrefix(l, "permission") || strings.HasPrefix(l, "run 1 ") || strings.HasPrefix(l, "run 2 ") {
			lines = append(lines, l)
		}
	}
	if !slices.Equal(lines, want) {
		t.Errorf("permission and run lines\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Folded at once, a request seen only answered gets its answer line.
	all := strings.Join(printPlain(t, acpRecording(t, "coding-session.jsonl"), false), "\n")
	if i, j := strings.Index(all, want[2]), strings.Index(all, want[3]); strings.Contains(all, "waiting for you") || i < 0 || j < i {
		t.Errorf("folded at once:\n%s", all)
	}
}
