// Package viewtest holds the checks every view test makes of drawn lines:
// each exactly as wide as asked, no colour left open at its end, and no
// control character outside the SGR sequences.
package viewtest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// SGR matches one SGR sequence; its group is the parameters.
var SGR = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

const reset = "\x1b[0m"

// CheckLines fails t unless lines are height lines of width cells each,
// every colour closed at the end of its line, and no control characters
// but the SGR sequences.
func CheckLines(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) != height {
		t.Fatalf("%d lines, want %d", len(lines), height)
	}
	CheckWidths(t, lines, width)
}

// CheckWidths fails t unless every line is width cells, closes every colour
// it opens, and has no control characters but the SGR sequences: the checks
// of CheckLines for a view whose height is its own.
func CheckWidths(t testing.TB, lines []string, width int) {
	t.Helper()
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != width {
			t.Errorf("line %d is %d cells, want %d: %q", i, w, width, l)
		}
		if sgr := SGR.FindAllString(l, -1); len(sgr) > 0 && sgr[len(sgr)-1] != reset {
			t.Errorf("line %d leaves a colour open: %q", i, l)
		}
		rest := SGR.ReplaceAllString(l, "")
		for _, r := range rest {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("line %d has control character %U: %q", i, r, l)
				break
			}
		}
	}
}

// HostileTexts are agent texts (titles, ids, messages) that try to escape
// the line they are drawn in: clipboard and title writes, screen clears,
// C1 controls, sixel, bidi overrides, huge and wide texts, invalid UTF-8.
var HostileTexts = []string{
	"\x1b]52;c;ZWNobyBwd25lZA==\x07copy me",
	"\x1b[2J\x1b[Hcleared",
	"\x1b]0;new window title\x1b\\titled",
	"\u009b31mC1 CSI\u0085next line\u009d8;;http://x\u009c",
	"tabs\tand\nnew\r\nlines\vand\fform feeds",
	"\x1bPqsixel\x1b\\\x1b_apc\x1b\\after",
	"right-to-left \u202eevil\u202c override",
	strings.Repeat("very long title ", 2000),
	strings.Repeat("宽字符", 200),
	strings.Repeat("🧑‍💻👍🏽", 100),
	"\x1b[31mred\x1b[0m and \x1b[1mbold\x1b[0m",
	"unterminated \x1b]8;;http://evil.example",
	"\xff\xfe invalid utf-8 \xc3",
	"",
	"   \n\t  ",
}

// Visible is line without its SGR sequences: what a person reads.
func Visible(line string) string { return SGR.ReplaceAllString(line, "") }

// VisibleLines is Visible of each line.
func VisibleLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Visible(l)
	}
	return out
}
