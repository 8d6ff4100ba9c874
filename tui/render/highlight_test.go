package render

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestHighlightKeepsColoursAndWidth(t *testing.T) {
	line := "a \x1b[31mred\x1b[0m b   "
	got := Highlight(line, "7")
	want := "\x1b[7ma \x1b[31mred\x1b[0m\x1b[7m b   \x1b[0m"
	if got != want {
		t.Errorf("Highlight = %q, want %q", got, want)
	}
	if ansi.StringWidth(got) != ansi.StringWidth(line) {
		t.Errorf("width %d, want %d", ansi.StringWidth(got), ansi.StringWidth(line))
	}
}
