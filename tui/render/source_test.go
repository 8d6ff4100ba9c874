package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

const sourceGo = `package main

import "fmt"

// greet says hello.
func greet(name string) int {
	n := 42
	fmt.Println("hello, " + name)
	return n
}
`

const sourceKotlin = `package demo

@Composable
fun Greeting(name: String) {
    val count = 3 // times
    Text(text = "Hello $name")
}
`

const sourceJSON = `{
  "name": "agentwatch",
  "steps": [1, 2.5],
  "live": true,
  "parent": null
}
`

const sourceMarkdown = "# Title\n\n## Usage\n\nRun `agentwatch` with **no** arguments, *then* press ?.\n\n- [x] read\n- edit\n"

// anySGR matches every SGR sequence SourceLines may write.
var anySGR = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// checkSourceLines fails unless lines Fit width×height, carry no escape but
// SGR, and end with a reset whenever they carry one.
func checkSourceLines(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) > height {
		t.Errorf("%d lines, want at most %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells, want at most %d: %q", i, w, width, l)
		}
		rest := anySGR.ReplaceAllString(l, "")
		if strings.ContainsFunc(rest, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 }) {
			t.Errorf("line %d has a control character or a non-SGR escape: %q", i, l)
		}
		if strings.Contains(l, "\t") {
			t.Errorf("line %d has a tab: %q", i, l)
		}
		if strings.IndexByte(l, 0x1b) >= 0 && !strings.HasSuffix(l, styles.Reset) {
			t.Errorf("line %d carries colour but does not end with a reset: %q", i, l)
		}
	}
}

// visibleText is lines with their SGR sequences removed.
func visibleText(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = anySGR.ReplaceAllString(l, "")
	}
	return out
}

// sourceGolden compares lines with testdata/<test name>.golden, or
// rewrites it with -update. Each golden holds the lines as drawn, then the same lines
// without colour, to read when reviewing.
func sourceGolden(t *testing.T, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n--- visible ---\n" + strings.Join(visibleText(lines), "\n") + "\n"
	golden.RequireEqual(t, got)
}

func TestSourceLinesGolden(t *testing.T) {
	for _, in := range []struct {
		name, path, text string
		first            int
		width, height    int
	}{
		{"go", "cmd/main.go", sourceGo, 1, 60, 12},
		{"kotlin", "app/src/Greeting.kt", sourceKotlin, 1, 60, 12},
		{"json", "package.json", sourceJSON, 1, 60, 12},
		{"markdown", "README.md", sourceMarkdown, 1, 60, 12},
		{"unknown", "notes.zzq", sourceGo, 1, 60, 12},
		{"go-from-40-cut", "main.go", sourceGo, 40, 24, 6},
	} {
		name := fmt.Sprintf("%s-%dx%d", in.name, in.width, in.height)
		t.Run(name, func(t *testing.T) {
			lines := SourceLines(in.path, in.text, in.first, in.width, in.height)
			checkSourceLines(t, lines, in.width, in.height)
			sourceGolden(t, lines)
		})
	}
}

func TestSourceLinesColours(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		want             []string // coloured fragments that must appear
	}{
		{"go keyword", "a.go", sourceGo, []string{styles.Keyword + "func", styles.Keyword + "package"}},
		{"go string", "a.go", sourceGo, []string{styles.String + `"hello, "`}},
		{"go number", "a.go", sourceGo, []string{styles.Number + "42"}},
		{"go comment", "a.go", sourceGo, []string{styles.Comment + "// greet says hello."}},
		{"go function", "a.go", sourceGo, []string{styles.Name + "greet"}},
		{"kotlin", "A.kt", sourceKotlin, []string{styles.Keyword + "fun", styles.Comment + "// times", styles.Number + "@Composable"}},
		{"json", "a.json", sourceJSON, []string{styles.Name + `"name"`, styles.String + `"agentwatch"`, styles.Number + "true", styles.Number + "2.5"}},
		{"markdown", "a.md", sourceMarkdown, []string{styles.Heading + "# Title", styles.Heading + "## Usage", styles.String + "`agentwatch`", styles.Bold + "**no**"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			joined := strings.Join(SourceLines(c.path, c.text, 1, 80, 20), "\n")
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Errorf("no %q in\n%s", w, joined)
				}
			}
		})
	}
}

func TestSourceLinesPlain(t *testing.T) {
	for _, c := range []struct{ name, path, text string }{
		{"unknown extension", "notes.zzq", sourceGo},
		{"no extension", "NOTES", sourceGo},
		{"plain text lexer", "notes.txt", sourceGo},
		{"empty path", "", sourceGo},
		{"over 1 MiB", "big.go", sourceGo + strings.Repeat("// filler\n", maxHighlightBytes/10)},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := SourceLines(c.path, c.text, 1, 80, 8)
			if len(lines) != 8 {
				t.Fatalf("%d lines, want 8", len(lines))
			}
			for i, l := range lines[:7] {
				// The dim gutter, its reset and the closing reset: the
				// text itself is uncoloured.
				if n := strings.Count(l, "\x1b["); n != 3 {
					t.Errorf("line %d is coloured (%d escapes): %q", i, n, l)
				}
			}
		})
	}
}

func TestSourceLinesGutter(t *testing.T) {
	text := strings.Repeat("x\n", 70)
	lines := visibleText(SourceLines("a.txt", text, 40, 20, 100))
	if len(lines) != 70 {
		t.Fatalf("%d lines, want 70", len(lines))
	}
	// Numbers 40..109 are right-aligned to three digits.
	for i, want := range map[int]string{0: " 40 x", 59: " 99 x", 60: "100 x", 69: "109 x"} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q", i, lines[i], want)
		}
	}
	if got := visibleText(SourceLines("a.txt", "x", 0, 20, 5)); len(got) != 1 || got[0] != "1 x" {
		t.Errorf("unknown first line: got %q, want [\"1 x\"]", got)
	}
	if got := visibleText(SourceLines("a.txt", "x", -7, 20, 5)); got[0] != "1 x" {
		t.Errorf("negative first line: got %q, want [\"1 x\"]", got)
	}
	if got := visibleText(SourceLines("a.txt", "x", 1<<62, 40, 5)); got[0] != fmt.Sprint(maxSourceLineNumber)+" x" {
		t.Errorf("huge first line: got %q", got)
	}
	// A gutter that would take more than half the panel is left out.
	if got := visibleText(SourceLines("a.txt", "abcdef", 1000, 7, 5)); got[0] != "abcdef" {
		t.Errorf("narrow panel: got %q, want [\"abcdef\"]", got)
	}
}

func TestSourceLinesTabs(t *testing.T) {
	got := visibleText(SourceLines("a.txt", "\tx\nab\tc\n\t\td", 1, 40, 5))
	want := []string{"1     x", "2 ab  c", "3         d"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	// Tab stops count cells across tokens of different colours.
	got = visibleText(SourceLines("a.go", "\tx := \"é\"\t// c", 1, 40, 5))
	if want := "1     x := \"é\"    // c"; got[0] != want {
		t.Errorf("got %q, want %q", got[0], want)
	}
}

func TestSourceLinesWidth(t *testing.T) {
	text := "// 日本語のコメントです、とても長い\nfunc f() { return \"ｗｉｄｅ ｓｔｒｉｎｇ\" }\n" + strings.Repeat("x", 5000) + "\n"
	for width := 1; width <= 30; width++ {
		lines := SourceLines("a.go", text, 1, width, 10)
		checkSourceLines(t, lines, width, 10)
		if len(lines) != 3 {
			t.Fatalf("width %d: %d lines, want 3", width, len(lines))
		}
	}
	lines := visibleText(SourceLines("a.go", text, 1, 12, 10))
	for i, want := range []string{"1 // 日本語…", "2 func f() …", "3 xxxxxxxxx…"} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q", i, lines[i], want)
		}
	}
}

func TestSourceLinesHeight(t *testing.T) {
	text := strings.Repeat("line\n", 10)
	for _, c := range []struct {
		height int
		want   []string
	}{
		{11, nil},
		{10, nil},
		{9, []string{" 8 line", "… 2 more lines"}},
		{2, []string{" 1 line", "… 9 more lines"}},
		{1, []string{"… 10 more lines"}},
	} {
		lines := SourceLines("a.txt", text, 1, 40, c.height)
		checkSourceLines(t, lines, 40, c.height)
		if want := min(10, c.height); len(lines) != want {
			t.Errorf("height %d: %d lines, want %d", c.height, len(lines), want)
		}
		vis := visibleText(lines)
		if c.want != nil && strings.Join(vis[len(vis)-len(c.want):], "|") != strings.Join(c.want, "|") {
			t.Errorf("height %d: ends %q, want %q", c.height, vis[len(vis)-len(c.want):], c.want)
		}
		if c.want != nil && !strings.HasPrefix(lines[len(lines)-1], styles.Faint) {
			t.Errorf("height %d: the marker is not dim: %q", c.height, lines[len(lines)-1])
		}
	}
}

func TestSourceLinesEscapes(t *testing.T) {
	hostile := "package x\n// \x1b]52;c;aGVsbG8=\x07copied \x1b[2J cleared\n" +
		"var s = \"\x1b]0;title\x07\x1b[31mred\x9b1A\"\r\n\x1bP+q\x1b\\x := 1\n"
	for _, path := range []string{"a.go", "a.md", "a.json", "a.zzq"} {
		lines := SourceLines(path, hostile, 1, 80, 10)
		checkSourceLines(t, lines, 80, 10)
		joined := strings.Join(lines, "\n")
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1bP", "\x07", "\x9b", "\r", "\x1b[31m"} {
			if strings.Contains(joined, bad) {
				t.Errorf("%s: %q reached the output:\n%q", path, bad, joined)
			}
		}
		if vis := strings.Join(visibleText(lines), "\n"); !strings.Contains(vis, "copied  cleared") {
			t.Errorf("%s: text around the escapes lost: %q", path, vis)
		}
	}
	// An escape left open at the cut is dropped, not let through.
	lines := SourceLines("a.go", "a\n\x1b]52;c;\nb\x07\nc\nd\n", 1, 80, 3)
	checkSourceLines(t, lines, 80, 3)
	if joined := strings.Join(lines, ""); strings.Contains(joined, "\x1b]") || strings.Contains(joined, "52;c") {
		t.Errorf("an open OSC reached the output: %q", joined)
	}
}

func TestSourceLinesEmpty(t *testing.T) {
	for _, c := range []struct {
		name          string
		text          string
		width, height int
	}{
		{"empty text", "", 80, 24},
		{"zero width", sourceGo, 0, 24},
		{"zero height", sourceGo, 80, 0},
		{"negative", sourceGo, -1, -1},
	} {
		if got := SourceLines("a.go", c.text, 1, c.width, c.height); got != nil {
			t.Errorf("%s: got %q, want nil", c.name, got)
		}
	}
	if got := visibleText(SourceLines("a.go", "\n", 1, 80, 24)); len(got) != 1 || got[0] != "1 " {
		t.Errorf("one empty line: got %q", got)
	}
}

func TestLexerKey(t *testing.T) {
	globs := wholeNameGlobs()
	for base, want := range map[string]string{
		"main.go":        ".go",
		"x.d.ts":         ".d.ts",
		"notes.txt":      ".txt",
		"CMakeLists.txt": "CMakeLists.txt",
		"Makefile":       "Makefile",
		"Dockerfile.dev": "Dockerfile.dev",
		".bashrc":        ".bashrc",
		"main.go.orig":   ".go.orig",
	} {
		if got := lexerKey(base, globs); got != want {
			t.Errorf("lexerKey(%q) = %q, want %q", base, got, want)
		}
	}
	// The cache must not hand a whole-name lexer to a plain extension.
	lexerFor("CMakeLists.txt")
	if l := lexerFor("notes.txt"); l != nil {
		t.Errorf("notes.txt got lexer %q, want none", l.Config().Name)
	}
	if l := lexerFor("CMakeLists.txt"); l == nil || l.Config().Name != "CMake" {
		t.Errorf("CMakeLists.txt got %v, want CMake", l)
	}
}

func FuzzSourceLines(f *testing.F) {
	f.Add("a.go", sourceGo, 1, uint8(80), uint8(24))
	f.Add("a.md", sourceMarkdown, 40, uint8(10), uint8(3))
	f.Add("a.json", "{\"\x1b]52;c;x\x07\":\t\"日本\"}", 0, uint8(5), uint8(1))
	f.Fuzz(func(t *testing.T, path, text string, first int, width, height uint8) {
		checkSourceLines(t, SourceLines(path, text, first, int(width), int(height)), int(width), int(height))
	})
}

// bigGoSource returns about n lines of Go: functions with tabs, strings,
// numbers and comments.
func bigGoSource(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\nimport \"fmt\"\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "// step%d reports step %d of the run.\nfunc step%d(name string) (int, error) {\n", i, i, i)
		fmt.Fprintf(&b, "\tif name == \"\" {\n\t\treturn 0, fmt.Errorf(\"step %d: no name\")\n\t}\n", i)
		fmt.Fprintf(&b, "\tfmt.Println(\"running\", name, %d) // progress\n\treturn %d * 2, nil\n}\n\n", i, i)
	}
	return b.String()
}

func BenchmarkSourceLines(b *testing.B) {
	text := bigGoSource(2000)
	SourceLines("big.go", text, 1, 100, 40) // the lexer lookup is cached
	b.ReportAllocs()
	for b.Loop() {
		SourceLines("big.go", text, 1, 100, 40)
	}
}

func TestSourceLinesConcurrent(t *testing.T) {
	// Views render from several goroutines in tests and benchmarks; the
	// lexer cache and the shared lexers must take it (run with -race).
	done := make(chan []string)
	paths := []string{"a.go", "b.kt", "c.json", "d.md", "e.zzq", "CMakeLists.txt", "f.go", "g.md"}
	for _, p := range paths {
		go func() { done <- SourceLines(p, sourceGo+"```go\nx := 1\n```\n", 1, 40, 20) }()
	}
	for range paths {
		checkSourceLines(t, <-done, 40, 20)
	}
}
