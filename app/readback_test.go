package app

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/window"
)

// drive runs a command and every command it leads to (batches included)
// through the App, until none is left; commands that block on the pump of
// a closed channel end at once.
func drive(a *tui.App, cmd tea.Cmd) { driveUpTo(a, cmd, math.MaxInt) }

// driveUpTo is drive, stopping after n messages; it reports whether it
// stopped with more to come.
func driveUpTo(a *tui.App, cmd tea.Cmd, n int) bool {
	queue := []tea.Cmd{cmd}
	for msgs := 0; len(queue) > 0; {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil {
			continue
		}
		if msgs++; msgs > n {
			return true
		}
		_, next := a.Update(msg)
		queue = append(queue, next)
	}
	return false
}

// A tail of a growing file sheds what it no longer shows; going back to
// the first step reads its content back from the file, in full.
func TestShedThenReadBack(t *testing.T) {
	path, recs, full := generatedLog(t, readBackEvents, 6)
	first := full.Steps()[0]

	ch := make(chan model.Batch, len(recs)/256+2)
	for i := 0; i < len(recs); i += 256 {
		ch <- model.Batch{Source: path, Records: recs[i:min(len(recs), i+256)]}
	}
	close(ch)
	opts := &Options{}
	a := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), ch, tui.AppOptions{
		Window: window.Options{Reader: New(opts).fileReaders(func(source string) string { return fileOf(opts, source, false) }), Keep: readBackKeep}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	drive(a, a.Init())
	screen := func() string { return ansi.Strip(a.View().Content) }
	if !strings.Contains(screen(), "earlier items not kept") {
		t.Fatalf("nothing was shed; the title bar is %q", strings.SplitN(screen(), "\n", 2)[0])
	}
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if cmd == nil {
		t.Fatal("selecting a shed step asked for no read back")
	}
	if !strings.Contains(screen(), "reading step 1 back from the file") {
		t.Errorf("while reading back the panel does not say so")
	}
	drive(a, cmd)
	want := computer.PanelLines(first, 90, 30)
	if len(want) == 0 {
		t.Fatal("the first step draws nothing")
	}
	got := screen()
	for _, l := range want[:min(3, len(want))] {
		if l = strings.TrimSpace(ansi.Strip(l)); l != "" && !strings.Contains(got, l) {
			t.Errorf("after reading back the screen lacks the first step's %q:\n%s", l, got)
		}
	}
	if strings.Contains(got, "reading step 1 back") || strings.Contains(got, "not kept, and reading it back failed") {
		t.Errorf("the panel still says it is reading or failed:\n%s", got)
	}
}

// A step whose skeleton the screen forgot (a thread of thousands of tool
// calls) is read back from the file by its index alone, in full.
func TestForgottenStepReadBack(t *testing.T) {
	var log bytes.Buffer
	if err := hostile.Write(&log, "tool-calls", 6000); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	if err := os.WriteFile(path, log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan model.Batch, len(recs)/256+2)
	for i := 0; i < len(recs); i += 256 {
		ch <- model.Batch{Source: path, Records: recs[i:min(len(recs), i+256)]}
	}
	close(ch)
	opts := &Options{}
	ts := fold.NewThreads(fold.Options{})
	a := tui.NewThreadsApp(ts, ch, tui.AppOptions{
		Window: window.Options{Reader: New(opts).fileReaders(func(source string) string { return fileOf(opts, source, false) }), Keep: readBackKeep}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	drive(a, a.Init())
	if th := ts.List()[0]; th.Fold.StepBase() == 0 {
		t.Fatalf("the screen forgot no step of %d", th.Fold.StepCount())
	}
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if cmd == nil {
		t.Fatal("selecting a forgotten step asked for no read back")
	}
	drive(a, cmd)
	got := ansi.Strip(a.View().Content)
	if !strings.Contains(got, "step 1 of 6000") || !strings.Contains(got, "$ echo 0") {
		t.Errorf("after reading back the screen lacks the first step:\n%s", got)
	}
	if strings.Contains(got, "reading it back failed") {
		t.Errorf("reading back failed:\n%s", got)
	}
}
