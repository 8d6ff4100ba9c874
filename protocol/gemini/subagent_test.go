package gemini_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// linesOf is a SubagentLines that gives the lines of files, by agent id.
func linesOf(files map[string][]byte) gemini.SubagentLines {
	return func(id string) [][]byte {
		b, ok := files[id]
		if !ok {
			return nil
		}
		var out [][]byte
		for ln := range bytes.SplitSeq(b, []byte("\n")) {
			if len(bytes.TrimSpace(ln)) > 0 {
				out = append(out, ln)
			}
		}
		return out
	}
}

// translateWith reads a whole session file whose subagents' files are
// files.
func translateWith(b []byte, files map[string][]byte) []model.Record {
	tr := gemini.New()
	tr.ReadSubagents(linesOf(files))
	return append(tr.Write(b), tr.Flush()...)
}

// The subagent the fixture's codebase_investigator call ran is that
// call's subagent run: its steps are under the call, its task and its
// text are its messages, and it ends, with the call, before the call's
// result.
func TestSubagentUnderItsCall(t *testing.T) {
	recs := translateWith(readFixture(t), map[string][]byte{subagentID: mustRead(t, subagentFixture)})
	f := foldAll(t, recs)
	type want struct {
		call, parent string
		depth        int
		subagent     string
	}
	wants := []want{
		{"run_shell_command_1745140517001_0", "", 0, ""},
		{"read_file_1745140517001_1", "", 0, ""},
		{"replace_1745140522001_0", "", 0, ""},
		{"replace_1745140525001_0", "", 0, ""},
		{"run_shell_command_1745140528001_0", "", 0, ""},
		{"google_web_search_1745140694001_0", "", 0, ""},
		{"codebase_investigator_1745140694001_1", "", 0, "codebase_investigator"},
		{subagentID + "#0-0", "codebase_investigator_1745140694001_1", 1, ""},
		{subagentID + "#1-0", "codebase_investigator_1745140694001_1", 1, ""},
	}
	steps := f.Steps()
	if len(steps) != len(wants) {
		t.Fatalf("%d steps, want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		if s.ToolCallID != w.call || s.ParentToolCallID != w.parent || s.Depth != w.depth || s.Subagent != w.subagent || i >= 6 && s.Status != model.StatusCompleted {
			t.Errorf("step %d: %s under %q depth %d subagent %q %s; want %+v", i, s.ToolCallID, s.ParentToolCallID, s.Depth, s.Subagent, s.Status, w)
		}
	}
	// In order: the call starts, the subagent runs, it ends, the call's
	// result comes.
	var order []string
	for _, r := range recs {
		switch e := r.Event.(type) {
		case *agui.ToolCallStart:
			if e.ToolCallID == "codebase_investigator_1745140694001_1" {
				order = append(order, "start")
			}
		case *agui.SubagentStarted:
			order = append(order, "subagent:"+e.ParentToolCallID.Value)
		case *agui.SubagentFinished:
			order = append(order, "finished")
		case *agui.ToolCallResult:
			if e.ToolCallID == "codebase_investigator_1745140694001_1" {
				order = append(order, "result")
			}
		}
		if r.Thread != fixtureThread {
			t.Fatalf("record %d names thread %q", r.Seq, r.Thread)
		}
	}
	if got := strings.Join(order, " "); got != "start subagent:codebase_investigator_1745140694001_1 finished result" {
		t.Errorf("order: %s", got)
	}
	var task bool
	for _, it := range f.Items() {
		if it.Kind == model.ItemMessage && it.SubagentRunID == gemini.SubagentRunID(subagentID) && strings.Contains(it.Text, "<objective>") {
			task = true
		}
	}
	if !task {
		t.Error("the subagent's task is not its message")
	}
	// Its thread's state is the session's, not the subagent's.
	if s := string(f.State()); strings.Contains(s, `"subagent"`) || !strings.Contains(s, `"main"`) {
		t.Errorf("state %s", s)
	}
}

// Without a way to read subagents, the call is a step like any other.
func TestSubagentNotRead(t *testing.T) {
	for _, r := range translate(readFixture(t)) {
		if _, ok := r.Event.(*agui.SubagentStarted); ok {
			t.Fatal("a subagent started with no file read")
		}
	}
	// Nor is one whose file is not there.
	for _, r := range translateWith(readFixture(t), nil) {
		if _, ok := r.Event.(*agui.SubagentStarted); ok {
			t.Fatal("a subagent started with no file")
		}
	}
}

// A subagent that ran one of its own nests it one deeper; one that
// wrote an error fails with it; a subagent's messages written again and
// rewound are read as the session's are.
func TestNestedSubagents(t *testing.T) {
	session := lines(
		`{"sessionId":"main","projectHash":"p","startTime":"2026-04-20T09:00:00.000Z","kind":"main"}`,
		`{"id":"u1","timestamp":"2026-04-20T09:00:01.000Z","type":"user","content":[{"text":"look"}]}`,
		`{"id":"g1","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"","model":"gemini-2.5-pro"}`,
		`{"id":"g1","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"","model":"gemini-2.5-pro","toolCalls":[`+
			`{"id":"gen_1","name":"generalist","args":{"request":"x"},"status":"success","timestamp":"2026-04-20T09:00:09.000Z","agentId":"a1","description":"Look around"},`+
			`{"id":"gen_2","name":"generalist","args":{"request":"y"},"status":"success","timestamp":"2026-04-20T09:00:09.500Z","agentId":"a3"}]}`,
	)
	a1 := lines(
		`{"sessionId":"a1","projectHash":"p","startTime":"2026-04-20T09:00:02.100Z","kind":"subagent"}`,
		`{"id":"s1","timestamp":"2026-04-20T09:00:02.200Z","type":"user","content":[{"text":"x"}]}`,
		`{"id":"s2","timestamp":"2026-04-20T09:00:03.000Z","type":"gemini","content":"first try"}`,
		`{"$rewindTo":"s2"}`,
		`{"id":"s3","timestamp":"2026-04-20T09:00:04.000Z","type":"gemini","content":"Asking another.","toolCalls":[{"id":"a1#0-0","name":"codebase_investigator","args":{"objective":"z"},"status":"executing"}]}`,
		`{"id":"s3","timestamp":"2026-04-20T09:00:04.000Z","type":"gemini","content":"Asking another.","toolCalls":[{"id":"a1#0-0","name":"codebase_investigator","args":{"objective":"z"},"status":"success","timestamp":"2026-04-20T09:00:08.000Z","agentId":"a2"}]}`,
	)
	a2 := lines(
		`{"sessionId":"a2","projectHash":"p","startTime":"2026-04-20T09:00:05.000Z","kind":"subagent"}`,
		`{"id":"n1","timestamp":"2026-04-20T09:00:05.100Z","type":"user","content":[{"text":"z"}]}`,
		`{"id":"n2","timestamp":"2026-04-20T09:00:06.000Z","type":"gemini","content":"","toolCalls":[{"id":"a2#0-0","name":"glob","args":{"pattern":"*"},"status":"success","timestamp":"2026-04-20T09:00:07.000Z"}]}`,
	)
	a3 := lines(
		`{"sessionId":"a3","projectHash":"p","startTime":"2026-04-20T09:00:09.100Z","kind":"subagent"}`,
		`{"id":"e1","timestamp":"2026-04-20T09:00:09.200Z","type":"error","content":"quota"}`,
	)
	recs := translateWith(session, map[string][]byte{"a1": a1, "a2": a2, "a3": a3})
	f := foldAll(t, recs)
	steps := f.Steps()
	got := []string{}
	for _, s := range steps {
		got = append(got, s.ToolCallID+"<"+s.ParentToolCallID+">"+itoa(s.Depth))
	}
	want := "gen_1<>0 a1#0-0<gen_1>1 a2#0-0<a1#0-0>2 gen_2<>0"
	if strings.Join(got, " ") != want {
		t.Errorf("steps %s, want %s", strings.Join(got, " "), want)
	}
	var texts []string
	var nested, failed bool
	for _, r := range recs {
		switch e := r.Event.(type) {
		case *agui.TextMessageContent:
			texts = append(texts, e.Delta)
		case *agui.SubagentStarted:
			if e.SubagentRunID.Value == "agent-a2" {
				nested = e.ParentSubagentRunID.Value == "agent-a1"
			}
			if e.SubagentRunID.Value == "agent-a1" && e.Description.Value != "Look around" {
				t.Errorf("a1's description %q", e.Description.Value)
			}
		case *agui.SubagentError:
			failed = e.SubagentRunID.Value == "agent-a3" && e.Message.Value == "quota"
		}
	}
	if !nested || !failed {
		t.Errorf("nested %v, failed %v", nested, failed)
	}
	if strings.Join(texts, "|") != "look|x|first try|Asking another.|z" {
		t.Errorf("texts %q", texts)
	}
}

// A session with its subagent cut anywhere translates as it does whole.
func TestSubagentSplits(t *testing.T) {
	b := readFixture(t)
	files := map[string][]byte{subagentID: mustRead(t, subagentFixture)}
	all := translateWith(b, files)
	for k := 0; k <= len(b); k++ {
		if !translaws.NearLineEnd(b, k) {
			continue
		}
		tr := gemini.New()
		tr.ReadSubagents(linesOf(files))
		recs := append(tr.Write(b[:k]), tr.Write(b[k:])...)
		recs = append(recs, tr.Flush()...)
		if !translaws.SameRecords(recs, all) {
			t.Fatalf("split at byte %d translates otherwise", k)
		}
	}
}

// Lines handed one at a time as a subagent's (SubagentLine) are its run
// under the call named, ended by EndSubagent; none shows outside a run.
func TestSubagentLine(t *testing.T) {
	tr := gemini.New()
	if out := tr.SubagentLine("a", "c", []byte(`{"id":"x","type":"user","content":"hi"}`)); out != nil {
		t.Fatalf("outside a run: %d records", len(out))
	}
	recs := tr.Line([]byte(`{"id":"u","timestamp":"2026-04-20T09:00:01.000Z","type":"user","content":"go"}`))
	recs = append(recs, tr.Line([]byte(`{"id":"g","timestamp":"2026-04-20T09:00:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"c","name":"generalist","status":"executing"}]}`))...)
	recs = append(recs, tr.SubagentLine("a", "c", []byte(`{"id":"x","timestamp":"2026-04-20T09:00:03.000Z","type":"gemini","content":"working","toolCalls":[{"id":"a#0","name":"glob","status":"success"}]}`))...)
	recs = append(recs, tr.EndSubagent("a", false)...)
	f := foldAll(t, recs)
	steps := f.Steps()
	if len(steps) != 2 || steps[1].ParentToolCallID != "c" || steps[1].Depth != 1 || steps[0].Subagent != "subagent" {
		t.Fatalf("steps %+v", steps)
	}
	if out := tr.EndSubagent("a", false); out != nil {
		t.Errorf("ended twice")
	}
}

func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

func itoa(n int) string { return string(rune('0' + n)) }
