package sources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
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
// day's folder (compressed too), and one in an earlier day's folder is
// not its.
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
	// Compressed, as Codex leaves a rollout idle for days.
	b, err := os.ReadFile(codexChildFixture)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zst := filepath.Join(root, "2026", "03", "02", filepath.Base(codexChildFixture)+".zst")
	copyTo(t, os.DevNull, zst)
	writeFile(t, zst, enc.EncodeAll(b, nil))
	if n := len(foldSteps(t, readSessionFile(t, parent))); n != 13 {
		t.Errorf("child compressed: %d steps, want 13", n)
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
	got := followLines(t, main, lines)
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

// codexRollout writes a rollout of lines (each "TIME TYPE PAYLOAD") at
// root/2026/02/23 under the name of thread id.
func codexRollout(t *testing.T, root, id string, lines ...string) string {
	t.Helper()
	var b bytes.Buffer
	for _, ln := range lines {
		at, rest, _ := strings.Cut(ln, " ")
		typ, payload, _ := strings.Cut(rest, " ")
		fmt.Fprintf(&b, `{"timestamp":"2026-02-23T12:00:%sZ","type":%q,"payload":%s}`+"\n", at, typ, payload)
	}
	p := filepath.Join(root, "2026", "02", "23", "rollout-2026-02-23T13-00-00-"+id+".jsonl")
	copyTo(t, os.DevNull, p)
	writeFile(t, p, b.Bytes())
	return p
}

// A subagent that spawns one of its own: the grandchild's steps are
// under the child's spawn step, one deeper, and its run names the
// child's as its parent.
func TestCodexNestedSubagents(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	spawned := func(parent string, depth int) string {
		return fmt.Sprintf(`{"subagent":{"thread_spawn":{"parent_thread_id":%q,"depth":%d,"agent_role":"worker"}}}`, parent, depth)
	}
	main := codexRollout(t, root, "p",
		`00.000 session_meta {"id":"p","source":"cli"}`,
		`01.000 event_msg {"type":"task_started","turn_id":"t1"}`,
		`01.100 response_item {"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"split it\"}","call_id":"s1"}`,
		`01.200 response_item {"type":"function_call_output","call_id":"s1","output":"{\"agent_id\":\"c\"}"}`,
		`01.300 response_item {"type":"function_call","name":"wait","arguments":"{}","call_id":"w1"}`,
		`09.000 response_item {"type":"function_call_output","call_id":"w1","output":"{}"}`,
		`09.100 event_msg {"type":"task_complete","turn_id":"t1"}`)
	codexRollout(t, root, "c",
		`01.150 session_meta {"id":"c","source":`+spawned("p", 1)+`}`,
		`01.210 event_msg {"type":"task_started","turn_id":"c1"}`,
		`01.400 response_item {"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"half\"}","call_id":"s2"}`,
		`01.500 response_item {"type":"function_call_output","call_id":"s2","output":"{\"agent_id\":\"g\"}"}`,
		`08.000 event_msg {"type":"task_complete","turn_id":"c1"}`)
	codexRollout(t, root, "g",
		`01.450 session_meta {"id":"g","source":`+spawned("c", 2)+`}`,
		`01.600 event_msg {"type":"task_started","turn_id":"g1"}`,
		`02.000 response_item {"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"g-ls"}`,
		`02.100 response_item {"type":"function_call_output","call_id":"g-ls","output":"a.go"}`,
		`03.000 event_msg {"type":"task_complete","turn_id":"g1"}`)
	recs := readSessionFile(t, main)
	steps := foldSteps(t, recs)
	var got []string
	for _, s := range steps {
		got = append(got, fmt.Sprintf("%s<%s>%d", s.ToolCallID, s.ParentToolCallID, s.Depth))
	}
	if want := "s1<>0 w1<>0 s2<s1>1 g-ls<s2>2"; strings.Join(got, " ") != want {
		t.Errorf("steps %s, want %s", strings.Join(got, " "), want)
	}
	under := "none"
	for _, r := range recs {
		if e, ok := r.Event.(*agui.SubagentStarted); ok && e.ParentToolCallID.Value == "s2" {
			under = e.ParentSubagentRunID.Value
		}
	}
	if under != "codex-c" {
		t.Errorf("the grandchild's run is under %q, want the child's", under)
	}
}
