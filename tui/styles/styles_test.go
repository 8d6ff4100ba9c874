package styles

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Every box of the screen is drawn by Frame: each line exactly the width,
// the title in the top edge when it fits, the body cut or padded.
func TestFrame(t *testing.T) {
	body := []string{"short", "a line much too long for the frame it is in", "\x1b[32mgreen\x1b[0m"}
	for width := 2; width <= 60; width++ {
		lines := Frame("computer", "7 steps", body, width, CardBorder)
		if len(lines) != len(body)+2 {
			t.Fatalf("width %d: %d lines", width, len(lines))
		}
		for i, l := range lines {
			if n := ansi.StringWidth(l); n != width {
				t.Errorf("width %d: line %d is %d cells: %q", width, i, n, l)
			}
		}
		top := ansi.Strip(lines[0])
		if fits := width-2 >= ansi.StringWidth("─ computer ")+1; fits != strings.Contains(top, "computer") {
			t.Errorf("width %d: top %q, title fits %v", width, top, fits)
		}
	}
	if got := Frame("t", "", body, 1, CardBorder); got != nil {
		t.Errorf("width 1: %q", got)
	}
	box := Box("Keys", []string{"one", "three"}, 80, HelpBorder)
	if n := ansi.StringWidth(box[0]); n != len("Keys")+3+4 {
		t.Errorf("Box is %d cells wide, want as wide as its title", n)
	}
}
