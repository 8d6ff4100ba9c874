package render

import (
	"strings"
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

func TestMarkSpans(t *testing.T) {
	line := "x \x1b[32mgreen word\x1b[0m end"
	got := MarkSpans(line, [][2]int{{8, 12}, {13, 16}}, "\x1b[7m")
	if ansi.Strip(got) != ansi.Strip(line) || ansi.StringWidth(got) != ansi.StringWidth(line) {
		t.Fatalf("MarkSpans changed the text: %q", got)
	}
	if want := "\x1b[0m\x1b[7mword\x1b[0m"; !strings.Contains(got, want) {
		t.Errorf("%q does not mark word as %q", got, want)
	}
	if want := "\x1b[0m\x1b[7mend\x1b[0m"; !strings.Contains(got, want) {
		t.Errorf("%q does not mark end", got)
	}
}
