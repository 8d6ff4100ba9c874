package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/window"
)

// manyStepsLog is n tool calls in two runs of thread t, as JSON Lines:
// every seventh fails (exit 1), and the categories take turns.
func manyStepsLog(n int) string {
	var b strings.Builder
	cats := []string{"execute", "read", "search"}
	run := func(id string, from, to int) {
		fmt.Fprintf(&b, `{"type":"RUN_STARTED","threadId":"t","runId":%q}`+"\n", id)
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, `{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"tool%d","metadata":{"category":%q}}`+"\n", i, i%3, cats[i%3])
			fmt.Fprintf(&b, `{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{\"command\":\"echo %d\"}"}`+"\n", i, i)
			fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", i)
			code := 0
			if i%7 == 3 {
				code = 1
			}
			fmt.Fprintf(&b, `{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"%d","metadata":{"exitCode":%d}}`+"\n", i, i, i, code)
		}
		fmt.Fprintf(&b, `{"type":"RUN_FINISHED","threadId":"t","runId":%q}`+"\n", id)
	}
	run("r1", 0, n/2)
	run("r2", n/2, n)
	return b.String()
}

// A thread that makes steps without end keeps the skeletons of its newest
// steps only; the screen still draws every step as a fold that forgets
// nothing has it (status, category, tool, run), counts them in the step
// bar, the filter and the thread list, and reads a forgotten step back by
// its index when it is selected.
func TestForgottenStepsDrawnAsKept(t *testing.T) {
	const n = 9000
	recs, err := sources.ReadAll(strings.NewReader(manyStepsLog(n)))
	if err != nil {
		t.Fatal(err)
	}
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	want := whole.Steps()

	type asked struct {
		index  int
		callID string
	}
	var reads []asked
	d := newThreadsApp(t, 160, 48, AppOptions{Window: window.Options{Reader: readFrom(fakeReader{step: func(_ string, index int, callID string) (*model.Step, error) {
		reads = append(reads, asked{index, callID})
		c := *want[index]
		return &c, nil
	}})}})
	for i := 0; i < len(recs); i += 300 {
		d.feed(t, model.Batch{Source: "log", Records: recs[i:min(i+300, len(recs))]})
	}
	th := d.tv().set.List()[0]
	if th.Fold.StepBase() == 0 || len(th.Fold.Steps()) > 2*window.ScreenKeep.Skeletons {
		t.Fatalf("the thread keeps %d of %d skeletons (forgot %d)", len(th.Fold.Steps()), n, th.Fold.StepBase())
	}

	got := d.allSteps()
	if len(got) != n {
		t.Fatalf("the screen draws %d steps, want %d", len(got), n)
	}
	failed := 0
	for i, s := range got {
		w := want[i]
		if s.Status != w.Status || s.Category != w.Category || s.ToolName != w.ToolName || s.RunID != w.RunID {
			t.Fatalf("step %d is drawn %s %s %s %s, want %s %s %s %s", i+1,
				s.Status, s.Category, s.ToolName, s.RunID, w.Status, w.Category, w.ToolName, w.RunID)
		}
		if forgot := i < th.Fold.StepBase(); window.IsStandIn(s) != forgot || !forgot && s != th.Fold.Step(i) {
			t.Fatalf("step %d: stand-in %v, forgotten %v", i+1, window.IsStandIn(s), forgot)
		}
		if w.Status == model.StatusFailed {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("the log has no failed step")
	}

	screen := ansi.Strip(d.screen(t))
	if !strings.Contains(screen, "step 9000 of 9000") {
		t.Errorf("the step bar does not count every step:\n%s", screen)
	}
	if !strings.Contains(screen, fmt.Sprintf("%d steps", n/2)) {
		t.Errorf("the computer card does not count the second run's %d steps:\n%s", n/2, screen)
	}
	if row := d.tv().rows[th]; row.steps != n || row.failed != failed {
		t.Errorf("the thread list counts %d steps, %d failed; want %d, %d", row.steps, row.failed, n, failed)
	}
	only, err := search.ParseFilter("failed")
	if err != nil {
		t.Fatal(err)
	}
	d.setFilter(only)
	if note := d.searchLine(); !strings.Contains(note, thousands(failed)+" of 9,000 steps") {
		t.Errorf("the failed filter says %q, want %d of 9,000 steps", note, failed)
	}
	d.setFilter(search.Filter{})

	// The first step is long forgotten: selecting it reads it back by
	// its index, the tool call's id being forgotten too.
	_, cmd := d.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if s := d.step(); s == nil || s.Index != 0 || !s.Shed {
		t.Fatalf("Home selects %+v, want step 1, its content not kept", s)
	}
	if cmd == nil {
		t.Fatal("selecting a forgotten step asked for no read back")
	}
	runCmd(d.App, cmd)
	if len(reads) != 1 || reads[0] != (asked{0, ""}) {
		t.Fatalf("read back %v, want step 0 without a tool call id", reads)
	}
	if screen := ansi.Strip(d.screen(t)); !strings.Contains(screen, "$ echo 0") {
		t.Errorf("after reading back the panel lacks the first step's command:\n%s", screen)
	}
}
