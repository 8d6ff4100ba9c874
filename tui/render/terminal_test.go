package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestTerminalLines(t *testing.T) {
	marker := func(s string) string { return styles.Faint + s + styles.Reset }
	tests := []struct {
		name          string
		output        string
		width, height int
		want          []string
	}{
		{"short output unchanged", "total 8\nREADME.md\n", 80, 24,
			[]string{"total 8", "README.md"}},
		{"no trailing newline", "a\nb", 80, 24, []string{"a", "b"}},
		{"blank lines kept", "a\n\nb\n", 80, 24, []string{"a", "", "b"}},
		{"empty output", "", 80, 24, nil},
		{"sgr kept and closed", "\x1b[31mFAIL\x1b[0m ok\n", 80, 24,
			[]string{"\x1b[31mFAIL\x1b[0m ok" + styles.Reset}},
		{"cursor move, clear and osc stripped",
			"a\x1b[2J\x1b[10;1Hb\x1b]0;title\x07c\x1b]52;c;aGk=\x07d\n", 80, 24,
			[]string{"abcd"}},
		{"tabs to 8-column stops", "a\tb\n12345678\tc\n\td\n", 80, 24,
			[]string{"a       b", "12345678        c", "        d"}},
		{"tab after wide characters", "世界\tx\n", 80, 24, []string{"世界    x"}},
		{"tab after colour", "\x1b[32mok\x1b[0m\tx\n", 80, 24,
			[]string{"\x1b[32mok\x1b[0m      x" + styles.Reset}},
		{"cr progress keeps last state", "10%\r50%\r100%\ndone\n", 80, 24,
			[]string{"100%", "done"}},
		{"cr at end of line", "working\r\n", 80, 24, []string{"working"}},
		{"crlf line endings", "one\r\ntwo\r\n", 80, 24, []string{"one", "two"}},
		{"truncated with ellipsis", "abcdefghij\n", 5, 24, []string{"abcd…"}},
		{"exact width untouched", "abcde\n", 5, 24, []string{"abcde"}},
		{"wide characters counted as two cells", "世界你好\n", 5, 24, []string{"世界…"}},
		{"colour open at the cut is reset", "\x1b[1;31merror: something long\n", 8, 24,
			[]string{"\x1b[1;31merror: …" + styles.Reset}},
		{"colour carried to the next line", "\x1b[33mwarn\nstill\x1b[0m\nplain\n", 80, 24,
			[]string{"\x1b[33mwarn" + styles.Reset, "\x1b[33mstill\x1b[0m" + styles.Reset, "plain"}},
		{"width 1", "abc\n世\nx\n", 1, 24, []string{"…", "…", "x"}},
		{"height 1 long output is just the marker", numberedLines(5), 20, 1,
			[]string{marker("    … 5 lines …")}},
		{"height 1 one line", "only\n", 20, 1, []string{"only"}},
		{"height 2", numberedLines(5), 20, 2,
			[]string{marker("    … 4 lines …"), "line 5"}},
		{"marker cut to width", numberedLines(50), 4, 3,
			[]string{"lin…", marker("… 4…"), "lin…"}},
		{"zero width", "a\n", 0, 24, nil},
		{"zero height", "a\n", 80, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TerminalLines(tt.output, tt.width, tt.height)
			if !slices.Equal(got, tt.want) {
				t.Errorf("TerminalLines(%q, %d, %d)\n got %q\nwant %q", tt.output, tt.width, tt.height, got, tt.want)
			}
			assertFits(t, got, tt.width, tt.height)
		})
	}
}

func TestTerminalLinesHeadAndTail(t *testing.T) {
	got := TerminalLines(numberedLines(1000), 80, 10)
	if len(got) != 10 {
		t.Fatalf("got %d lines, want 10: %q", len(got), got)
	}
	want := []string{"line 1", "line 2", "line 3", "line 4", "", "line 996", "line 997", "line 998", "line 999", "line 1000"}
	for i, w := range want {
		if i == 4 {
			continue
		}
		if got[i] != w {
			t.Errorf("line %d = %q, want %q", i, got[i], w)
		}
	}
	if m := ansi.Strip(got[4]); strings.TrimSpace(m) != "… 991 lines …" {
		t.Errorf("marker = %q, want … 991 lines …", m)
	}
	if !strings.HasPrefix(got[4], styles.Faint) {
		t.Errorf("marker %q is not dim", got[4])
	}
}

func TestTerminalLinesCarriesColourAcrossHiddenLines(t *testing.T) {
	out := "\x1b[36m" + numberedLines(100)
	got := TerminalLines(out, 80, 5)
	if last := got[len(got)-1]; last != "\x1b[36mline 100"+styles.Reset {
		t.Errorf("last line = %q, want the colour opened before the hidden lines", last)
	}
}

func TestTerminalLinesColourFromHiddenLines(t *testing.T) {
	tests := []struct {
		name, hidden, want string
	}{
		{"colour opened", "\x1b[35mx", "\x1b[35mlast" + styles.Reset},
		{"colour opened then reset", "\x1b[35mx\x1b[m", "last"},
		{"sgr inside an osc is not colour", "\x1b]0;\x1b[35m\x07x", "last"},
		{"cursor move is not colour", "\x1b[5Ax", "last"},
		{"colour overwritten by cr", "\x1b[35m10%\r100%", "last"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := numberedLines(10) + tt.hidden + "\n" + numberedLines(10) + "last\n"
			got := TerminalLines(out, 80, 3)
			if last := got[len(got)-1]; last != tt.want {
				t.Errorf("last line = %q, want %q", last, tt.want)
			}
		})
	}
}

func TestTerminalLinesFitsHostileAndWideOutput(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "\x1b[3%dm%s\t世界🙂 \x1b]8;;http://x\x07link\x1b]8;;\x07 %d%%\r%d%%\x1b[0m\n",
			i%8, strings.Repeat("ü", i%40), i, i+1)
	}
	for _, size := range [][2]int{{1, 1}, {1, 5}, {2, 3}, {3, 24}, {7, 7}, {80, 24}, {200, 60}} {
		got := TerminalLines(b.String(), size[0], size[1])
		assertFits(t, got, size[0], size[1])
		for _, l := range got {
			if strings.Contains(l, "\x1b]") || strings.Contains(l, "\r") {
				t.Fatalf("%dx%d: unsafe line %q", size[0], size[1], l)
			}
		}
	}
}

func assertFits(t *testing.T, lines []string, width, height int) {
	t.Helper()
	if len(lines) > max(height, 0) {
		t.Errorf("%d lines for height %d", len(lines), height)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %q is %d cells wide, over %d", l, w, width)
		}
		if strings.Contains(l, "\n") {
			t.Errorf("line %q contains a newline", l)
		}
	}
}

func BenchmarkTerminalLines(b *testing.B) {
	var sb strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&sb, "\x1b[32m✓\x1b[0m ok  \tgithub.com/agentwatch/agentwatch/pkg%d\t0.%03ds\tcoverage: %d.0%% of statements\n", i, i%1000, i%100)
	}
	out := sb.String()
	b.SetBytes(int64(len(out)))
	for b.Loop() {
		TerminalLines(out, 80, 24)
	}
}

// A view that scrolls wraps a long line instead of cutting it, carrying
// its colour onto the next row, and counts what it leaves for later.
func TestTerminalHeadWraps(t *testing.T) {
	out := "\x1b[32m" + strings.Repeat("abcdefghij", 3) + "\x1b[0m\nshort\nmore\n"
	lines := TerminalHead(out, 12, 10)
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = ansi.Strip(l)
		if w := ansi.StringWidth(l); w > 12 {
			t.Errorf("line %d is %d cells", i, w)
		}
	}
	if strings.Join(plain, "|") != "abcdefghijab|cdefghijabcd|efghij|short|more" {
		t.Errorf("wrapped into %q", plain)
	}
	if !strings.HasPrefix(lines[1], "\x1b[32m") {
		t.Errorf("the wrapped row lost its colour: %q", lines[1])
	}
	if cut := TerminalHead(out, 12, 3); len(cut) != 3 || !strings.Contains(ansi.Strip(cut[2]), "3 more") {
		t.Errorf("cut to 3 rows: %q", cut)
	}
}
