package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/window"
)

// acpTurn is the records of hostile.ACPTurn(first, n).
func acpTurn(t *testing.T, first, n int) []model.Record {
	t.Helper()
	var b strings.Builder
	if err := hostile.ACPTurn(&b, first, n); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadACPRecording(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// A live agent's session that runs long keeps what the screen shows, as a
// thread of a file does: its oldest items and steps are shed while the
// screen follows, every step is still drawn as it was (and counted in the
// turn's computer card), the title says how many items are not kept, and a shed step says where its content is.
// Looking back stops the shedding.
func TestSessionSheds(t *testing.T) {
	const n = 6000
	recs := acpTurn(t, 0, n)
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	want := whole.Steps()
	if len(want) != n {
		t.Fatalf("the recording makes %d steps, want %d", len(want), n)
	}

	a := NewAgentApp(fold.New(fold.Options{}), make(chan []model.Record), &fakeAgent{}, AppOptions{Title: "agent", Window: window.Options{Recording: "run.jsonl"}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for i := 0; i < len(recs); i += 250 {
		a.Update(recordsMsg{recs[i:min(i+250, len(recs))]})
	}
	if got := len(a.fold.Items()); got >= 2*window.ScreenKeep.Items {
		t.Errorf("the session keeps %d items, want under %d", got, 2*window.ScreenKeep.Items)
	}
	if a.fold.StepBase() == 0 || len(a.fold.Steps()) > 2*window.ScreenKeep.Skeletons {
		t.Errorf("the session keeps %d of %d step skeletons", len(a.fold.Steps()), n)
	}
	got := a.allSteps()
	if len(got) != n {
		t.Fatalf("the screen draws %d steps, want %d", len(got), n)
	}
	for i, s := range got {
		if s.Status != want[i].Status || s.Category != want[i].Category {
			t.Fatalf("step %d drawn %s/%s, want %s/%s", i+1, s.Category, s.Status, want[i].Category, want[i].Status)
		}
	}
	view := ansi.Strip(a.View().Content)
	for _, w := range []string{"earlier items not kept", fmt.Sprintf("step %d of %d", n, n), fmt.Sprintf("%d steps", n)} {
		if !strings.Contains(view, w) {
			t.Errorf("the screen does not say %q:\n%s", w, view)
		}
	}

	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape}) // leave the prompt line
	a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if a.selected != 0 || a.following {
		t.Fatalf("Home selected step %d (following %v), want step 1", a.selected+1, a.following)
	}
	view = ansi.Strip(a.View().Content)
	if !strings.Contains(view, "the recording has it") {
		t.Errorf("step 1, shed, does not say where its content is:\n%s", view)
	}

	// Looking back: what arrives is kept until the screen follows again.
	items := len(a.fold.Items())
	more := acpTurn(t, n, n)
	for i := 0; i < len(more); i += 250 {
		a.Update(recordsMsg{more[i:min(i+250, len(more))]})
	}
	if got := len(a.fold.Items()); got < items+2*n {
		t.Errorf("looking back, the session kept %d items of %d", got, items+2*n)
	}
}

// A recorded session reads a step it shed back from its recording, as the
// session's thread there.
func TestSessionReadsBackFromRecording(t *testing.T) {
	const n = 6000
	recs := acpTurn(t, 0, n)
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	var asked []window.StepKey
	a := NewAgentApp(fold.New(fold.Options{}), make(chan []model.Record), &fakeAgent{}, AppOptions{Window: window.Options{Recording: "run.jsonl",
		Reader: func(source string) window.Reader {
			return fakeReader{step: func(thread string, index int, callID string) (*model.Step, error) {
				asked = append(asked, window.StepKey{Source: source, Thread: thread, Index: index})
				if callID != "" && callID != whole.Steps()[index].ToolCallID { // "" for a step the screen forgot
					return nil, fmt.Errorf("asked for %q", callID)
				}
				c := *whole.Steps()[index]
				return &c, nil
			}}
		}}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for i := 0; i < len(recs); i += 250 {
		a.Update(recordsMsg{recs[i:min(i+250, len(recs))]})
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if cmd == nil {
		if s := a.step(); s == nil || !s.Shed {
			t.Fatalf("step %d is not shed: the test reads nothing back", a.selected+1)
		}
		t.Fatal("selecting a shed step asked for nothing to be read back")
	}
	runCmd(a, cmd)
	if len(asked) == 0 || asked[len(asked)-1] != (window.StepKey{Source: "run.jsonl", Thread: "s", Index: 0}) {
		t.Fatalf("read back %v, want step 1 of session s in run.jsonl", asked)
	}
	view := ansi.Strip(a.View().Content)
	if !strings.Contains(view, "$ echo 0") || !strings.Contains(view, "out 0") {
		t.Errorf("step 1, read back, is not shown:\n%s", view)
	}
}

// A recorded session reads the items it shed back from its recording too:
// going to its first step brings the rows around it back, as the session's
// thread there has them.
func TestSessionReadsItemsBackFromRecording(t *testing.T) {
	recs := acpTurn(t, 0, 6000)
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	var wanted []window.ItemsWanted
	a := NewAgentApp(fold.New(fold.Options{}), make(chan []model.Record), &fakeAgent{}, AppOptions{Window: window.Options{Recording: "run.jsonl",
		Reader: readFrom(fakeReader{step: func(_ string, index int, _ string) (*model.Step, error) {
			c := *whole.Steps()[index]
			return &c, nil
		},
			items: func(w window.ItemsWanted) (window.ItemsRead, error) {
				wanted = append(wanted, w)
				var r window.ItemsRead
				for _, it := range whole.Items() {
					if w.Step >= 0 && it.Seq <= uint64(2*w.Max) || w.Step < 0 && it.Seq >= w.From && it.Seq < w.To {
						r.Items = append(r.Items, it)
						if it.Kind == model.ItemToolCall {
							r.Steps = append(r.Steps, whole.Steps()[it.Step])
						}
					}
				}
				return r, nil
			}})}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for i := 0; i < len(recs); i += 250 {
		a.Update(recordsMsg{recs[i:min(i+250, len(recs))]})
	}
	if view := ansi.Strip(a.View().Content); strings.Contains(view, "did 0\n") {
		t.Fatal("the first message is on screen before anything is read back")
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	runCmd(a, cmd)
	if len(wanted) == 0 || wanted[0].Source != "run.jsonl" || wanted[0].Thread != "s" || wanted[0].Step != 0 {
		t.Fatalf("asked for %+v, want the items around step 1 of session s in run.jsonl", wanted)
	}
	view := ansi.Strip(a.View().Content)
	for _, w := range []string{"did 0", "Ran command · echo 0", "read back"} {
		if !strings.Contains(view, w) {
			t.Errorf("after reading back the screen does not say %q:\n%s", w, view)
		}
	}
}
