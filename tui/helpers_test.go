package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/window"
)

// sgrRE matches one SGR sequence.
var sgrRE = viewtest.SGR

// checkPanel fails unless lines are at most height lines of exactly width
// cells with no control character outside the SGR sequences.
func checkPanel(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) > height {
		t.Errorf("%d×%d: got %d lines", width, height, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != width {
			t.Errorf("%d×%d: line %d is %d cells: %q", width, height, i, n, l)
		}
		bare := sgrRE.ReplaceAllString(l, "")
		for _, r := range bare {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("%d×%d: line %d holds control %U: %q", width, height, i, r, l)
				break
			}
		}
	}
}

// plainLines are lines without colours or trailing blanks.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(sgrRE.ReplaceAllString(l, ""), " ")
	}
	return out
}

// tv is the thread list's state of an App the test made of many threads.
func (a *App) tv() *threadsView { return a.mode.(*threadsView) }

// rp is the replay's state of an App the test made to replay.
func (a *App) rp() *replayMode { return a.mode.(*replayMode) }

// fakeReader is a window.Reader made of two functions (a nil one's read
// fails).
type fakeReader struct {
	step  func(thread string, index int, callID string) (*model.Step, error)
	items func(w window.ItemsWanted) (window.ItemsRead, error)
}

func (r fakeReader) Step(thread string, index int, callID string) (*model.Step, error) {
	if r.step == nil {
		return nil, errors.New("no step is read back here")
	}
	return r.step(thread, index, callID)
}

func (r fakeReader) Items(w window.ItemsWanted) (window.ItemsRead, error) {
	if r.items == nil {
		return window.ItemsRead{}, errors.New("no item is read back here")
	}
	return r.items(w)
}

// readFrom is a window's Reader option that reads every source with r.
func readFrom(r fakeReader) func(string) window.Reader {
	return func(string) window.Reader { return r }
}

// runCmd runs cmd as the program would and hands what it brings to a, the
// commands of a batch each in turn (a test runs only commands that answer
// at once: reads, not ticks).
func runCmd(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			runCmd(a, c)
		}
	case nil:
	default:
		a.Update(m)
	}
}
