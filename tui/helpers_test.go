package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
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
