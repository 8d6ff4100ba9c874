package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// fixtures are the session files under testdata/claude.
func fixtures(t testing.TB) [][]byte {
	t.Helper()
	paths, _ := filepath.Glob("../../testdata/claude/projects/*/*.jsonl")
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata/claude/projects")
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// same reports where two record lists differ ("" when they do not).
func same(a, b []model.Record) string {
	if len(a) != len(b) {
		return "record counts differ"
	}
	for i := range a {
		if a[i].Seq != b[i].Seq || !bytes.Equal(a[i].Raw, b[i].Raw) || a[i].Thread != b[i].Thread || !a[i].At.Equal(b[i].At) {
			return "record " + string(a[i].Raw) + " vs " + string(b[i].Raw)
		}
	}
	return ""
}

// TestEverySplit holds the translator to the law the fold keeps: a session
// appended in two pieces, at each line's end or inside a line (a torn line is
// waited for), gives the records the whole file gives.
func TestEverySplit(t *testing.T) {
	for _, data := range fixtures(t) {
		whole := New().Feed(data)
		if len(whole) == 0 {
			t.Fatal("the fixture gave no records")
		}
		for _, k := range splits(data) {
			tr := New()
			got := append(tr.Feed(data[:k]), tr.Feed(data[k:])...)
			if d := same(whole, got); d != "" {
				t.Fatalf("split at byte %d: %s", k, d)
			}
		}
	}
}

// splits are the places a cut can matter: each line's end, a byte either
// side of it and its middle (every byte of a 10 KB file took 16 s).
func splits(data []byte) []int {
	ks := []int{0, len(data)}
	start := 0
	for i, c := range data {
		if c == '\n' {
			ks = append(ks, max(i-1, 0), i, i+1, min(i+2, len(data)), (start+i)/2)
			start = i + 1
		}
	}
	return append(ks, (start+len(data))/2)
}

// TestLineByLine feeds a session byte by byte: still the same records.
func TestLineByLine(t *testing.T) {
	data, err := os.ReadFile("../../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	whole := New().Feed(data)
	tr := New()
	var got []model.Record
	for i := range data {
		got = append(got, tr.Feed(data[i:i+1])...)
	}
	if d := same(whole, got); d != "" {
		t.Fatal(d)
	}
	if !tr.Pending() {
		t.Error("the fixture's torn last line should be waiting")
	}
}

// TestTitlesAndSkipped: titles become title events, bookkeeping lines and
// unknown types show nothing and are no problem.
func TestTitlesAndSkipped(t *testing.T) {
	tr := New()
	for _, l := range []string{
		`{"type":"queue-operation","operation":"enqueue","sessionId":"s"}`,
		`{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`,
		`{"type":"world-state","sessionId":"s"}`,
		`not json`,
	} {
		if recs := tr.Line([]byte(l)); len(recs) != 0 {
			t.Errorf("%s gave %d records", l, len(recs))
		}
	}
	recs := tr.Line([]byte(`{"type":"custom-title","customTitle":"Mine","sessionId":"s"}`))
	if len(recs) != 1 || recs[0].Event.EventType() != "CUSTOM" || recs[0].Thread != "s" {
		t.Fatalf("custom-title gave %v", recs)
	}
}

// FuzzTranslator feeds any bytes, whole and cut in two: never a panic,
// and the same records either way.
func FuzzTranslator(f *testing.F) {
	for _, data := range fixtures(f) {
		f.Add(data, uint(len(data)/2))
	}
	f.Add([]byte(`{"type":"user","uuid":"u","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"image","source":null}]}]},"toolUseResult":"Error"}`+"\n"), uint(7))
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		k := int(cut % uint(len(data)+1))
		whole := New().Feed(data)
		tr := New()
		got := append(tr.Feed(data[:k]), tr.Feed(data[k:])...)
		if d := same(whole, got); d != "" {
			t.Fatalf("split at %d: %s", k, d)
		}
	})
}

// A subagent's lines are marked as its own, under the call that started
// it; a failed call ends its subagent with an error.
func TestSubagentFailed(t *testing.T) {
	tr := New()
	tr.Line([]byte(`{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"go"}}`))
	tr.Line([]byte(`{"type":"assistant","uuid":"a1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_t","name":"Task","input":{"description":"look"}}]}}`))
	a := Subagent{ID: "x1", Type: "Explore", ToolUseID: "toolu_t"}
	recs := tr.SubagentLine(a, []byte(`{"type":"user","uuid":"x-u1","isSidechain":true,"agentId":"x1","sessionId":"s","message":{"role":"user","content":"look around"}}`))
	if len(recs) == 0 || recs[0].Event.EventType() != "SUBAGENT_STARTED" || !bytes.Contains(recs[0].Raw, []byte(`"parentToolCallId":"toolu_t"`)) {
		t.Fatalf("the subagent's first line gave %v", recs)
	}
	for _, r := range recs[1:] {
		if !bytes.Contains(r.Raw, []byte(`"subagentRunId":"agent-x1"`)) {
			t.Errorf("not the subagent's: %s", r.Raw)
		}
	}
	recs = tr.Line([]byte(`{"type":"user","uuid":"r1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_t","content":"boom","is_error":true}]},"toolUseResult":{"agentId":"x1"}}`))
	if len(recs) != 2 || recs[0].Event.EventType() != "SUBAGENT_ERROR" || recs[1].Event.EventType() != "TOOL_CALL_RESULT" {
		t.Fatalf("the failed call gave %v", recs)
	}
}

// A glance at a session file whole (no tail) gives its first and last
// times, its project and id, and its title as a fold gives it: the custom
// title over the others.
func TestGlanceWhole(t *testing.T) {
	data, err := os.ReadFile("../../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	whole := data[:bytes.LastIndexByte(data, '\n')+1]
	g := Glance(whole, nil)
	if g.ID != "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23" || g.Project != "/home/dev/app" || g.Title != "Flaky retry test" {
		t.Errorf("glance %+v", g)
	}
	if g.First.IsZero() || !g.Last.After(g.First) {
		t.Errorf("first %v, last %v: the last line's time is later", g.First, g.Last)
	}
	half := bytes.LastIndexByte(whole[:len(whole)/2], '\n') + 1
	if h := Glance(whole[:half], whole[half:]); !h.Last.Equal(g.Last) || h.Title != g.Title {
		t.Errorf("head and tail: %+v, whole: %+v", h, g)
	}
}

// A background task's notice starts the agent's turn as a notification,
// not as something the person typed; a slash command reads as typed.
func TestNotificationAndSlashCommand(t *testing.T) {
	tr := New()
	recs := tr.Line([]byte(`{"type":"user","uuid":"n1","sessionId":"s","message":{"role":"user","content":"<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n<summary>Background command \"npm test\" completed</summary>\n</task-notification>"}}`))
	if len(recs) != 2 || recs[0].Event.EventType() != "RUN_STARTED" || recs[1].Event.EventType() != "ACTIVITY_SNAPSHOT" ||
		!bytes.Contains(recs[1].Raw, []byte(`"task_id":"b1"`)) || !bytes.Contains(recs[1].Raw, []byte(`"activityType":"notification"`)) {
		t.Fatalf("the notice gave %v", recs)
	}
	recs = tr.Line([]byte(`{"type":"user","uuid":"c1","sessionId":"s","message":{"role":"user","content":"<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>keep the tests</command-args>"}}`))
	found := false
	for _, r := range recs {
		found = found || bytes.Contains(r.Raw, []byte(`"delta":"/compact keep the tests"`))
	}
	if !found {
		t.Fatalf("the slash command gave %v", recs)
	}
}
