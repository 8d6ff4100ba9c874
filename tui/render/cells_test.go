package render

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cellsSamples are lines Cells counts itself and lines it leaves to ansi.
var cellsSamples = []string{
	"", "plain", "\x1b[1;38;5;214mcolour\x1b[0m and not", "\x1b[m", "a\x1b[", "a\x1b[12",
	"a\x1b[1\x01m", "\x1b]0;title\x07x", "\x1bcx", "tab\there", "naïve", "日本語", "e\u0301",
	"👩‍💻 done", "\x1b[38;2;1;2;3m✓\x1b[0m ok", "\x7f", "\x1b[?25l", "\x1b[1 q",
}

// Cells counts every line as ansi.StringWidth does.
func TestCellsLikeAnsi(t *testing.T) {
	for _, s := range cellsSamples {
		if got, want := Cells(s), ansi.StringWidth(s); got != want {
			t.Errorf("Cells(%q) = %d, ansi says %d", s, got, want)
		}
	}
}

// FuzzCells: Cells agrees with ansi.StringWidth on any input.
func FuzzCells(f *testing.F) {
	for _, s := range cellsSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Cells(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Cells(%q) = %d, ansi says %d", s, got, want)
		}
	})
}
