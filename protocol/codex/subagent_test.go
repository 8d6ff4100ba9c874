package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

// childFixture is the rollout of the subagent the fixture's last turn
// spawns: forked with the session's history, which it writes again first.
var childFixture = filepath.Join(filepath.Dir(fixture),
	"rollout-2026-02-23T13-05-02-019c8a69-4e5f-7a60-b1c2-d3e4f5a6b7c8.jsonl")

const childThread = "019c8a69-4e5f-7a60-b1c2-d3e4f5a6b7c8"

// lines are the non-blank lines of b.
func lines(b []byte) [][]byte {
	var out [][]byte
	for _, ln := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(ln)) > 0 {
			out = append(out, ln)
		}
	}
	return out
}

// translateFamily translates the session's lines with its child's lines
// among them, each child line before the first session line written after
// it, from the line that says which thread the spawn call started on.
func translateFamily(t *testing.T, parent, child []byte) []model.Record {
	t.Helper()
	cl := lines(child)
	meta, ok := codex.ReadSubagent(cl[0])
	if !ok {
		t.Fatal("the child's first line does not say it was spawned")
	}
	tr := codex.New()
	var out []model.Record
	linked := false
	for _, ln := range lines(parent) {
		at := codex.LineTime(ln)
		for linked && len(cl) > 0 && codex.LineTime(cl[0]).Before(at) {
			out = append(out, tr.SubagentLine(meta, cl[0])...)
			cl = cl[1:]
		}
		out = append(out, tr.Line(ln)...)
		linked = linked || len(tr.Spawned()) > 0
	}
	for _, ln := range cl {
		out = append(out, tr.SubagentLine(meta, ln)...)
	}
	return out
}

// spawnSession is a session whose turn spawns thread k (call c1).
const spawnSession = `{"timestamp":"2026-02-23T12:00:00.000Z","type":"session_meta","payload":{"id":"p"}}
{"timestamp":"2026-02-23T12:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1"}}
{"timestamp":"2026-02-23T12:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"look\"}","call_id":"c1"}}
{"timestamp":"2026-02-23T12:00:02.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"agent_id\":\"k\",\"nickname\":null}"}}
`

func readChild(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(childFixture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The child's first line names the session that spawned it, whole or cut
// after the parent's id.
func TestReadSubagent(t *testing.T) {
	first := lines(readChild(t))[0]
	a, ok := codex.ReadSubagent(first)
	want := codex.Subagent{ID: childThread, Parent: fixtureThread, Depth: 1, Nickname: "Lorentz", Role: "explorer"}
	if !ok || a != want {
		t.Errorf("ReadSubagent = %+v %v, want %+v", a, ok, want)
	}
	cut := first[:bytes.Index(first, []byte(`"base_instructions"`))]
	if got := codex.ParentThread(cut); got != fixtureThread {
		t.Errorf("ParentThread of the cut head = %q", got)
	}
	if _, ok := codex.ReadSubagent(lines(readFixture(t))[0]); ok {
		t.Error("the session, which nobody spawned, reads as a subagent")
	}
	if got := codex.ParentThread(lines(readFixture(t))[0]); got != "" {
		t.Errorf("ParentThread of the session = %q", got)
	}
}

// The child's steps are the session's, under the call that spawned it;
// the history it replays is not shown again; its run starts under the
// call and ends with its turn.
func TestSubagentLines(t *testing.T) {
	recs := translateFamily(t, readFixture(t), readChild(t))
	f := foldAll(t, recs)
	steps := f.Steps()
	if len(steps) != 13 {
		for _, s := range steps {
			t.Logf("%s %s under %q", s.ToolCallID, s.ToolName, s.ParentToolCallID)
		}
		t.Fatalf("%d steps, want the session's 12 and the child's one (the replay shows none)", len(steps))
	}
	spawn, grep := steps[9], steps[12]
	if spawn.ToolCallID != "call_spawn" || spawn.Subagent != "Lorentz" || spawn.Depth != 0 {
		t.Errorf("the spawn step: %s subagent %q depth %d", spawn.ToolCallID, spawn.Subagent, spawn.Depth)
	}
	if grep.ToolCallID != "call_grep" || grep.ParentToolCallID != "call_spawn" || grep.Depth != 1 ||
		grep.Status != model.StatusCompleted || !strings.Contains(grep.Result, "tax.go:9") {
		t.Errorf("the child's step: %s under %q depth %d %s %q", grep.ToolCallID, grep.ParentToolCallID, grep.Depth, grep.Status, grep.Result)
	}
	var started *agui.SubagentStarted
	var ended, childUsers int
	for _, r := range recs {
		switch e := r.Event.(type) {
		case *agui.SubagentStarted:
			started = e
		case *agui.SubagentFinished:
			ended++
		case *agui.TextMessageStart:
			if e.Role == "user" && strings.Contains(string(r.Raw), `"subagentRunId"`) {
				childUsers++
			}
		}
	}
	if started == nil || started.ParentToolCallID.Value != "call_spawn" || started.Name.Value != "Lorentz" ||
		!strings.HasPrefix(started.Description.Value, "explorer: Review the rounding change") {
		t.Fatalf("SUBAGENT_STARTED %+v", started)
	}
	if ended != 1 || childUsers != 1 {
		t.Errorf("%d subagent runs ended, %d user messages of the child; want 1 and its task", ended, childUsers)
	}
}

// A child's lines make nothing until a call of the session is known to
// have spawned it, and a turn of it that is aborted ends its run with an
// error.
func TestSubagentUnknownAndAborted(t *testing.T) {
	cl := lines(readChild(t))
	meta, _ := codex.ReadSubagent(cl[0])
	tr := codex.New()
	for _, ln := range cl {
		if recs := tr.SubagentLine(meta, ln); len(recs) > 0 {
			t.Fatalf("a line of a thread no call spawned made %d records", len(recs))
		}
	}
	recs := tr.Write([]byte(spawnSession))
	if got := tr.Spawned(); len(got) != 1 || got[0] != "k" {
		t.Fatalf("Spawned = %q", got)
	}
	kid := codex.Subagent{ID: "k", Parent: "p", Depth: 1}
	for _, ln := range []string{
		`{"timestamp":"2026-02-23T12:00:02.050Z","type":"session_meta","payload":{"id":"k","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p","depth":1}}}}}`,
		`{"timestamp":"2026-02-23T12:00:02.200Z","type":"event_msg","payload":{"type":"task_started","turn_id":"k1"}}`,
		`{"timestamp":"2026-02-23T12:00:02.300Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"k-ls"}}`,
		`{"timestamp":"2026-02-23T12:00:03.000Z","type":"event_msg","payload":{"type":"turn_aborted","turn_id":"k1","reason":"interrupted"}}`,
	} {
		recs = append(recs, tr.SubagentLine(kid, []byte(ln))...)
	}
	var errs []string
	for _, r := range recs {
		if e, ok := r.Event.(*agui.SubagentError); ok {
			errs = append(errs, e.Message.Value)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "aborted (interrupted)") {
		t.Errorf("SUBAGENT_ERROR messages %q", errs)
	}
	f := foldAll(t, recs)
	if s := f.Steps(); len(s) != 2 || s[0].Subagent != "subagent" || s[1].ParentToolCallID != "c1" {
		t.Errorf("steps %+v", s)
	}
}
