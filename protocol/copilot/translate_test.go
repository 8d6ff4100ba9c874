package copilot_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// Every tool call of the fixture is one step, of the category, status,
// location, exit code and subagent its events say: the two views started
// together complete out of order, the failed view fails with Copilot's
// error, the tests' non-zero exit fails their step, and the subagent's
// grep is the subagent's.
func TestFixtureSteps(t *testing.T) {
	f := foldAll(t, translate(readFixture(t)))
	type want struct {
		id       string
		tool     string
		category model.Category
		status   model.Status
		location string
		exit     int // -1: none
		sub      string
	}
	wants := []want{
		{"toolu_vrtx_01ViewTotal", "view", model.CategoryRead, model.StatusCompleted, "/home/dev/shop/cart/total.go", -1, ""},
		{"toolu_vrtx_02ViewTest", "view", model.CategoryRead, model.StatusCompleted, "/home/dev/shop/cart/total_test.go", -1, ""},
		{"toolu_vrtx_03EditTotal", "edit", model.CategoryEdit, model.StatusCompleted, "/home/dev/shop/cart/total.go", -1, ""},
		{"toolu_vrtx_04Test", "bash", model.CategoryExecute, model.StatusFailed, "go test ./...", 1, ""},
		{"toolu_vrtx_05ViewRounding", "view", model.CategoryRead, model.StatusFailed, "/home/dev/shop/invoice/rounding.go", -1, ""},
		{"toolu_vrtx_06Task", "task", model.CategoryThink, model.StatusCompleted, "Find other truncating rounding", -1, ""},
		{"toolu_vrtx_07Grep", "grep", model.CategorySearch, model.StatusCompleted, `math\.Floor`, -1, "toolu_vrtx_06Task"},
		{"toolu_vrtx_08EditTax", "edit", model.CategoryEdit, model.StatusCompleted, "/home/dev/shop/invoice/tax.go", -1, ""},
	}
	steps := f.Steps()
	if len(steps) != len(wants) {
		for _, s := range steps {
			t.Logf("%s %s %s %s", s.ToolCallID, s.ToolName, s.Category, s.Status)
		}
		t.Fatalf("%d steps, want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		if s.ToolCallID != w.id || s.ToolName != w.tool || s.Category != w.category || s.Status != w.status ||
			s.Location != w.location || s.SubagentRunID != w.sub {
			t.Errorf("step %d = %s %s %s %s %q %q, want %+v", i, s.ToolCallID, s.ToolName, s.Category, s.Status, s.Location, s.SubagentRunID, w)
		}
		switch {
		case w.exit < 0 && s.ExitCode != nil:
			t.Errorf("step %d: exit code %d, want none", i, *s.ExitCode)
		case w.exit >= 0 && (s.ExitCode == nil || *s.ExitCode != w.exit):
			t.Errorf("step %d: exit code %v, want %d", i, s.ExitCode, w.exit)
		}
	}
	if !steps[1].Ended.Before(steps[0].Ended) {
		t.Error("the second view completed first and should end first")
	}
	if got := steps[3].Result; strings.Contains(got, "<exited") || !strings.HasSuffix(got, "\nFAIL") {
		t.Errorf("the command's result %q should be its output without the exit line", got)
	}
	if got := steps[3].Label(); got != "Command failed (exit 1) · go test ./..." {
		t.Errorf("label %q", got)
	}
	if !strings.HasPrefix(steps[4].Result, "Path /home/dev/shop/invoice/rounding.go does not exist") {
		t.Errorf("the failed view's result %q, want Copilot's error", steps[4].Result)
	}
	if !strings.HasPrefix(steps[2].Result, "diff --git a/home/dev/shop/cart/total.go") {
		t.Errorf("the edit's result %q, want its diff", steps[2].Result)
	}
}

// The conversation: the user's two prompts (the first naming its
// attachments), the subagent's prompt tagged as the subagent's, reasoning
// written twice shown once, one compaction with its summary, the subagent
// started and finished inside the first run, and two runs, the second
// continuing the first and ended by the shutdown.
func TestFixtureConversation(t *testing.T) {
	recs := translate(readFixture(t))
	for _, r := range recs {
		if r.Thread != fixtureThread {
			t.Fatalf("record %d names thread %q", r.Seq, r.Thread)
		}
	}
	var users, reasoning, customs, subs, runs []string
	var parents []string
	for _, r := range recs {
		switch e := r.Event.(type) {
		case *agui.TextMessageContent:
			if strings.HasPrefix(e.MessageID, "user-") {
				users = append(users, e.Common().SubagentRunID.Value+"|"+e.Delta)
			}
		case *agui.ReasoningMessageContent:
			reasoning = append(reasoning, e.Delta)
		case *agui.Custom:
			customs = append(customs, e.Name+" "+string(e.Value))
		case *agui.SubagentStarted:
			subs = append(subs, "start "+e.Common().SubagentRunID.Value+" "+e.Name.Value+" "+e.ParentToolCallID.Value)
		case *agui.SubagentFinished:
			subs = append(subs, "finish "+e.Common().SubagentRunID.Value)
		case *agui.RunStarted:
			parents = append(parents, e.ParentRunID)
		case *agui.RunFinished:
			o := "success"
			if e.Outcome != nil {
				o = e.Outcome.Type
			}
			runs = append(runs, o)
		}
	}
	if len(users) != 3 || users[0] != "|The cart total is off by a cent. Fix it and run the tests.\n[file /home/dev/shop/cart/total.go]\n[selection /home/dev/shop/cart/total_test.go]" ||
		!strings.HasPrefix(users[1], "toolu_vrtx_06Task|Find every place") || users[2] != "|Yes, fix tax.go too." {
		t.Errorf("user messages %q", users)
	}
	if len(reasoning) != 2 {
		t.Errorf("reasoning %q, want the two texts once each", reasoning)
	}
	if len(customs) != 1 || !strings.HasPrefix(customs[0], "compaction ") || !strings.Contains(customs[0], `"summary":"The user asked to fix`) {
		t.Errorf("custom events %q, want one compaction with its summary", customs)
	}
	if strings.Join(subs, ", ") != "start toolu_vrtx_06Task Explore Agent toolu_vrtx_06Task, finish toolu_vrtx_06Task" {
		t.Errorf("subagents %q", subs)
	}
	if strings.Join(runs, " ") != "success success" || len(parents) != 2 || parents[0] != "" ||
		parents[1] != "run-e0020000-0000-4000-8000-000000000002" {
		t.Errorf("runs ended %q, parents %q", runs, parents)
	}
	foldAll(t, recs)
}

// Lines that show nothing: an ephemeral event, types this package does not
// know, bookkeeping; a line that is not JSON is one unreadable record.
func TestSkipped(t *testing.T) {
	tr := copilot.New()
	for _, l := range []string{
		`{"type":"session.start","data":{"sessionId":"s","context":{"cwd":"/w"}},"id":"a","timestamp":"2026-03-10T09:00:00Z","parentId":null}`,
		`{"type":"assistant.message_delta","ephemeral":true,"data":{"messageId":"m","deltaContent":"x"}}`,
		`{"type":"user.message","ephemeral":true,"data":{"content":"streamed only"}}`,
		`{"type":"session.world_state","data":{}}`,
		`{"type":"permission.requested","data":{"requestId":"p","permissionRequest":{"kind":"shell"}}}`,
		`{"type":"session.compaction_start","data":{"trigger":"manual"}}`,
	} {
		if recs := tr.Line([]byte(l)); len(recs) != 0 {
			t.Errorf("%s gave %d records", l, len(recs))
		}
	}
	recs := tr.Line([]byte(`not json`))
	if len(recs) != 1 {
		t.Fatalf("a line that is not JSON gave %d records", len(recs))
	}
	if _, ok := recs[0].Event.(*model.Unreadable); !ok {
		t.Errorf("a line that is not JSON gave %T", recs[0].Event)
	}
}

// A subagent whose events come without its subagent.started (a file cut
// short) still shows its steps as its own, and the run ends at the abort,
// cancelled, with the subagent still running finished.
func TestSubagentWithoutStart(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"user.message","id":"u1","data":{"content":"go"},"timestamp":"2026-03-10T09:00:00Z"}`,
		`{"type":"tool.execution_start","agentId":"ag","data":{"toolCallId":"c1","toolName":"glob","arguments":{"pattern":"**/*.go"}},"timestamp":"2026-03-10T09:00:01Z"}`,
		`{"type":"tool.execution_complete","agentId":"ag","data":{"toolCallId":"c1","success":true,"result":{"content":"a.go"}},"timestamp":"2026-03-10T09:00:02Z"}`,
		`{"type":"abort","data":{"reason":"user_initiated"},"timestamp":"2026-03-10T09:00:03Z"}`,
	}, "\n") + "\n"
	recs := translate([]byte(in))
	f := foldAll(t, recs)
	steps := f.Steps()
	if len(steps) != 1 || steps[0].SubagentRunID != "ag" || steps[0].Category != model.CategorySearch || steps[0].Status != model.StatusCompleted {
		t.Fatalf("steps %+v", steps)
	}
	last := recs[len(recs)-1].Event.(*agui.RunFinished)
	if last.Outcome == nil || last.Outcome.Type != "cancelled" {
		t.Errorf("the run ended %+v, want cancelled", last.Outcome)
	}
}

// A run whose calls are still running when the session shuts down in
// error ends in error; the shell's exit code comes from its shell_exit
// block when Copilot wrote one.
func TestShutdownInError(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"user.message","id":"u1","data":{"content":"go"}}`,
		`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"powershell","arguments":{"command":"exit 2"}}}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"","contents":[{"type":"shell_exit","exitCode":2,"shellId":"1"}]}}}`,
		`{"type":"tool.execution_start","data":{"toolCallId":"c2","toolName":"bash","arguments":{"command":"sleep 100"}}}`,
		`{"type":"session.shutdown","data":{"shutdownType":"error","errorReason":"crashed"}}`,
	}, "\n")
	recs := translate([]byte(in))
	f := foldAll(t, recs)
	steps := f.Steps()
	if len(steps) != 2 || steps[0].ExitCode == nil || *steps[0].ExitCode != 2 || steps[0].Status != model.StatusFailed ||
		steps[0].Location != "exit 2" {
		t.Fatalf("steps %+v", steps)
	}
	if e, ok := recs[len(recs)-1].Event.(*agui.RunError); !ok || e.Message != "crashed" {
		t.Errorf("last event %s, want the run's error", recs[len(recs)-1].Raw)
	}
}
