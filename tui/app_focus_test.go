package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// longOutputLog is a log of one run whose third step ran a command that
// printed lines lines ("out 1" … "out N").
func longOutputLog(lines int) []byte {
	var out strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&out, "out %d\n", i)
	}
	var b strings.Builder
	ts := 1_760_000_000_000
	ev := func(format string, args ...any) {
		ts += 10
		fmt.Fprintf(&b, format, args...)
		fmt.Fprintf(&b, `,"timestamp":%d}`+"\n", ts)
	}
	ev(`{"type":"RUN_STARTED","threadId":"t","runId":"r"`)
	ev(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"`)
	ev(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Running the build."`)
	ev(`{"type":"TEXT_MESSAGE_END","messageId":"m"`)
	for i, cmd := range []string{"ls", "pwd", "make all", "echo done"} {
		id := fmt.Sprintf("c%d", i)
		result := "ok"
		if i == 2 {
			result = out.String()
		}
		ev(`{"type":"TOOL_CALL_START","toolCallId":%q,"toolCallName":"bash","parentMessageId":"m","metadata":{"category":"execute","location":%q}`, id, cmd)
		ev(`{"type":"TOOL_CALL_ARGS","toolCallId":%q,"delta":%s`, id, jstr(fmt.Sprintf(`{"command":%q}`, cmd)))
		ev(`{"type":"TOOL_CALL_END","toolCallId":%q`, id)
		ev(`{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":%q,"content":%s`, i, id, jstr(result))
	}
	ev(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"`)
	return []byte(b.String())
}

// logApp is an App that has read log to its end, at w×h.
func logApp(t testing.TB, log []byte, w, h int) *demoApp {
	t.Helper()
	ch := make(chan []model.Record, 1)
	ch <- readLog(t, log)
	close(ch)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	a.Update(a.Init()())
	a.Update(a.pump()())
	return &demoApp{fedApp[[]model.Record]{App: a}}
}

// panelText is the panel's view as plain text.
func (d *demoApp) panelText() string {
	g := d.geo.panelView
	var b strings.Builder
	for row := g.y; row < g.y+g.h && row < len(d.frame); row++ {
		b.WriteString(strings.TrimRight(ansi.Cut(ansi.Strip(d.frame[row]), g.x, g.x+g.w), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Tab cycles the panes in view; the focused one takes the movement keys.
func TestFocusCyclesAndRoutesKeys(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	if d.focus != focusTranscript {
		t.Fatalf("starts on %v", d.focus)
	}
	d.press("tab")
	if d.focus != focusPanel {
		t.Fatalf("tab: focus on %v", d.focus)
	}
	if !strings.Contains(d.frame[d.geo.panel.y-1], styles.TitleFocus) {
		t.Error("the focused computer's title is not drawn as focused")
	}
	d.press("tab")
	if d.focus != focusTranscript {
		t.Fatalf("tab tab: focus on %v", d.focus)
	}
	d.press("shift+tab")
	if d.focus != focusPanel {
		t.Fatalf("shift+tab: focus on %v", d.focus)
	}
	// On the panel the movement keys scroll its view, not the transcript.
	d.press("home")
	sel, top := d.selected, d.frame[d.geo.transcript.y]
	d.press("j", "j")
	if d.selected != sel || d.frame[d.geo.transcript.y] != top {
		t.Error("j on the panel moved the transcript")
	}
	// Hiding the computer leaves one pane to focus.
	d.press("c", "tab")
	if d.focus != focusTranscript {
		t.Errorf("with the computer hidden tab focuses %v", d.focus)
	}
}

// The computer scrolls to the last line of a long output: G, ↓ and PgDn
// with the panel focused reach "out 200", and go no further.
func TestPanelScrollsToTheLastLine(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		d := logApp(t, longOutputLog(200), sz[0], sz[1])
		d.press("home", "right", "right")
		if !strings.Contains(d.panelText(), "$ make all") {
			t.Fatalf("%v: step 3 not shown:\n%s", sz, d.panelText())
		}
		if strings.Contains(d.panelText(), "more lines") || strings.Contains(d.panelText(), "lines …") {
			t.Errorf("%v: the view cuts the output:\n%s", sz, d.panelText())
		}
		d.press("tab")
		for range 250 {
			d.press("down")
		}
		if !strings.Contains(d.panelText(), "out 200\n") {
			t.Errorf("%v: ↓ did not reach the last line:\n%s", sz, d.panelText())
		}
		last := d.panelText()
		d.press("down", "pgdown")
		if d.panelText() != last {
			t.Errorf("%v: the view scrolled past the last line", sz)
		}
		d.press("g")
		if !strings.Contains(d.panelText(), "$ make all") {
			t.Errorf("%v: g did not go back to the top", sz)
		}
		d.press("G")
		if !strings.Contains(d.panelText(), "out 200\n") {
			t.Errorf("%v: G did not reach the last line:\n%s", sz, d.panelText())
		}
		if status := ansi.Strip(d.frame[d.geo.panelView.y+d.geo.panelView.h]); !strings.Contains(status, "of 201") {
			t.Errorf("%v: the status line does not say where the view is: %q", sz, status)
		}
		// Another step starts at its top.
		d.press("right")
		if !strings.Contains(d.panelText(), "$ echo done") {
			t.Errorf("%v: the next step does not start at its top:\n%s", sz, d.panelText())
		}
	}
}

// z gives the computer the whole screen and back.
func TestZoomPanel(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	d.press("z")
	if !d.zoom || d.focus != focusPanel || d.geo.transcript.h != 0 || d.geo.panel.w != 120 {
		t.Fatalf("z: zoom %v focus %v transcript %+v panel %+v", d.zoom, d.focus, d.geo.transcript, d.geo.panel)
	}
	d.press("z")
	if d.zoom || d.geo.transcript.h == 0 {
		t.Fatalf("z z: zoom %v transcript %+v", d.zoom, d.geo.transcript)
	}
}

// A failed step opens where it says why: at 80×24 the panel shows the
// command's FAIL lines, not the PASS lines before them.
func TestFailedStepOpensAtItsFailure(t *testing.T) {
	d := newDemoApp(t, 80, 24, true, AppOptions{})
	d.press("home", "e")
	if s := d.step(); s == nil || s.Status != model.StatusFailed {
		t.Fatalf("e selected %+v", s)
	}
	if got := d.panelText(); !strings.Contains(got, "FAIL internal/schedule.TestParseLength") {
		t.Fatalf("the failed step's view does not show why it failed:\n%s", got)
	}
	// The person can still scroll to its top.
	d.press("tab", "g")
	if d.focus != focusPanel || !strings.Contains(d.panelText(), "$ gotestsum") {
		t.Fatalf("g in the focused panel did not go to the top:\n%s", d.panelText())
	}
}
