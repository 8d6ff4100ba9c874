package tui

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// fakeAgent notes what the screen asked of it.
type fakeAgent struct {
	mu      sync.Mutex
	prompts []string
	cancels int
	modes   []string
}

func (f *fakeAgent) Prompt(text string) {
	f.mu.Lock()
	f.prompts = append(f.prompts, text)
	f.mu.Unlock()
}
func (f *fakeAgent) Cancel()           { f.mu.Lock(); f.cancels++; f.mu.Unlock() }
func (f *fakeAgent) SetMode(id string) { f.mu.Lock(); f.modes = append(f.modes, id); f.mu.Unlock() }

// acpCodingSession reads the hand-written ACP recording.
func acpCodingSession(t *testing.T) []model.Record {
	t.Helper()
	f, err := os.Open("../testdata/acp/coding-session.jsonl")
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

func newAgentTestApp(t *testing.T, w, h int) (*App, *fakeAgent) {
	t.Helper()
	ch := make(chan []model.Record, 1)
	ch <- acpCodingSession(t)
	close(ch)
	ag := &fakeAgent{}
	a := NewAgentApp(fold.New(fold.Options{}), ch, ag, AppOptions{Title: "fixture"})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	a.Update(a.pump()())
	return a, ag
}

func (a *App) typeText(s string) {
	for _, r := range s {
		a.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestAgentPromptLine(t *testing.T) {
	a, ag := newAgentTestApp(t, 120, 40)
	a.typeText("fix the tests")
	a.Update(keyPress("enter"))
	if len(ag.prompts) != 1 || ag.prompts[0] != "fix the tests" {
		t.Fatalf("prompts sent: %q", ag.prompts)
	}
	a.Update(TurnMsg{Busy: true})
	if got := ansi.Strip(a.View().Content); !strings.Contains(got, "● working") {
		t.Fatal("no working mark while the turn runs")
	}
	a.typeText("more")
	a.Update(keyPress("enter"))
	if len(ag.prompts) != 1 {
		t.Fatal("a second prompt was sent during a turn")
	}
	a.Update(keyPress("esc"))
	if ag.cancels != 1 || !strings.Contains(ansi.Strip(a.View().Content), "cancelling") {
		t.Fatalf("esc during a turn: %d cancels", ag.cancels)
	}
	a.Update(TurnMsg{StopReason: "cancelled"})
	if got := ansi.Strip(a.View().Content); !strings.Contains(got, "turn ended: cancelled") {
		t.Fatal("the stop reason is not shown")
	}
	// The text typed during the turn was kept; it goes now.
	a.Update(keyPress("enter"))
	if len(ag.prompts) != 2 || ag.prompts[1] != "more" {
		t.Fatalf("prompts sent: %q", ag.prompts)
	}
	a.Update(TurnMsg{StopReason: "end_turn"})
	a.typeText("/mode plan")
	a.Update(keyPress("enter"))
	if len(ag.modes) != 1 || ag.modes[0] != "plan" {
		t.Fatalf("modes: %q", ag.modes)
	}
	// esc leaves the prompt; q then quits, i comes back.
	a.Update(keyPress("esc"))
	if cmd := a.key(keyPress("q")); cmd == nil {
		t.Fatal("q outside the prompt should quit")
	}
}

func TestAgentPermissionDialog(t *testing.T) {
	a, _ := newAgentTestApp(t, 120, 40)
	var toolCall string
	for _, s := range a.fold.Steps() {
		if s.Category == model.CategoryEdit {
			toolCall = s.ToolCallID
		}
	}
	answer := make(chan string, 1)
	opts := []model.PermissionOption{{ID: "ok1", Name: "Allow once", Kind: "allow_once"}, {ID: "ok*", Name: "Always allow", Kind: "allow_always"},
		{ID: "no1", Name: "Reject", Kind: "reject_once"}, {ID: "no*", Name: "Always reject", Kind: "reject_always"}}
	a.Update(PermissionMsg{Request: model.PermissionRequest{ToolCallID: toolCall, Title: "Edit config.yaml", Options: opts}, Answer: answer})
	got := a.View().Content
	checkScreen(t, strings.Split(got, "\n"), 120, 40)
	golden.RequireEqual(t, got)
	plain := ansi.Strip(got)
	for _, want := range []string{"Permission", "Edit config.yaml", "[1/y] Allow once", "[4/N] Always reject", "[esc] cancel", "@@"} {
		if !strings.Contains(plain, want) {
			t.Errorf("dialog lacks %q", want)
		}
	}
	a.Update(keyPress("x")) // not an option: the dialog stays
	select {
	case id := <-answer:
		t.Fatalf("x answered %q", id)
	default:
	}
	a.Update(keyPress("a"))
	if id := <-answer; id != "ok*" {
		t.Fatalf("a answered %q, want the allow_always option", id)
	}
	if strings.Contains(ansi.Strip(a.View().Content), "[esc] cancel") {
		t.Fatal("the dialog stayed after the answer")
	}
	for key, want := range map[string]string{"3": "no1", "N": "no*", "esc": ""} {
		a.Update(PermissionMsg{Request: model.PermissionRequest{ToolCallID: toolCall, Options: opts}, Answer: answer})
		a.Update(keyPress(key))
		if id := <-answer; id != want {
			t.Errorf("%s answered %q, want %q", key, id, want)
		}
	}
	// A request withdrawn by a cancel closes its dialog.
	a.Update(PermissionMsg{Request: model.PermissionRequest{ToolCallID: toolCall, Options: opts}, Answer: answer})
	a.Update(PermissionClosedMsg{ToolCallID: toolCall})
	if strings.Contains(ansi.Strip(a.View().Content), "[esc] cancel") {
		t.Fatal("a withdrawn request's dialog stayed")
	}
}

func TestAgentGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("session-%dx%d", sz[0], sz[1]), func(t *testing.T) {
			a, _ := newAgentTestApp(t, sz[0], sz[1])
			got := a.View().Content
			checkScreen(t, strings.Split(got, "\n"), sz[0], sz[1])
			golden.RequireEqual(t, got)
		})
	}
}

// p shows the agent's plan in the computer panel, and again goes back.
func TestAgentPlanInPanel(t *testing.T) {
	a, _ := newAgentTestApp(t, 160, 48)
	a.Update(keyPress("esc")) // leave the prompt line
	a.Update(keyPress("p"))
	got := ansi.Strip(a.View().Content)
	if !strings.Contains(got, "of 4 done") || !strings.Contains(got, "Check the docs") {
		t.Fatalf("p: no plan in the panel:\n%s", got)
	}
	a.Update(keyPress("p"))
	if a.showPlan {
		t.Fatal("second p did not go back to the step")
	}
}
