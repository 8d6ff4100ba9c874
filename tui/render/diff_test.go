package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// sampleDiff is a two-hunk git diff whose first hunk adds a line, so the
// old and new numbers of the second hunk differ.
const sampleDiff = `diff --git a/greet.go b/greet.go
index 3b18e51..a9c4f2d 100644
--- a/greet.go
+++ b/greet.go
@@ -1,5 +1,6 @@
 package greet
 
-import "fmt"
+import "strings"
+import "unicode"
 
 // Hello says hello.
@@ -10,5 +11,6 @@ func Hello(name string) string {
 	if name == "" {
-		return "hello"
+		name = "world"
 	}
-	return fmt.Sprintf("hello, %s", name)
+	name = strings.TrimFunc(name, unicode.IsSpace)
+	return "hello, " + name
 }
`

// visible is line without its SGR sequences.
func visible(line string) string {
	return sgrRE.ReplaceAllString(line, "")
}

func visibleLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = visible(l)
	}
	return out
}

// checkDiffLines fails unless lines Fit width×height, carry no escape
// sequence but SGR nor any control character, and every line with colour
// ends with a reset.
func checkDiffLines(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) > height {
		t.Errorf("%d lines for height %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i, w, width, l)
		}
		if strings.IndexByte(l, 0x1b) >= 0 && !strings.HasSuffix(l, styles.Reset) {
			t.Errorf("line %d has colour but does not end with a reset: %q", i, l)
		}
		for _, r := range visible(l) {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("line %d has control character %U: %q", i, r, l)
				break
			}
		}
	}
}

func TestDiffLinesUnified(t *testing.T) {
	got := visibleLines(DiffLines(sampleDiff, 80, 40))
	want := []string{
		"diff --git a/greet.go b/greet.go",
		"index 3b18e51..a9c4f2d 100644",
		"--- a/greet.go",
		"+++ b/greet.go",
		"@@ -1,5 +1,6 @@",
		" 1  1  package greet",
		" 2  2  ",
		" 3    -import \"fmt\"",
		"    3 +import \"strings\"",
		"    4 +import \"unicode\"",
		" 4  5  ",
		" 5  6  // Hello says hello.",
		"@@ -10,5 +11,6 @@ func Hello(name string) string {",
		"10 11      if name == \"\" {",
		"11    -        return \"hello\"",
		"   12 +        name = \"world\"",
		"12 13      }",
		"13    -    return fmt.Sprintf(\"hello, %s\", name)",
		"   14 +    name = strings.TrimFunc(name, unicode.IsSpace)",
		"   15 +    return \"hello, \" + name",
		"14 16  }",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDiffLinesColours(t *testing.T) {
	lines := DiffLines(sampleDiff, 80, 40)
	tests := []struct {
		line int
		want string
	}{
		{0, styles.Bold + "diff --git a/greet.go b/greet.go" + styles.Reset},
		{1, styles.Faint + "index 3b18e51..a9c4f2d 100644" + styles.Reset},
		{2, styles.Bold + "--- a/greet.go" + styles.Reset},
		{3, styles.Bold + "+++ b/greet.go" + styles.Reset},
		{4, styles.CyanFg + "@@ -1,5 +1,6 @@" + styles.Reset},
		{5, styles.Faint + " 1  1" + styles.Reset + "  package greet" + styles.Reset},
		{7, styles.Faint + " 3   " + styles.Reset + " " + styles.RedFg + "-import \"fmt\"" + styles.Reset},
		{8, styles.Faint + "    3" + styles.Reset + " " + styles.GreenFg + "+import \"strings\"" + styles.Reset},
	}
	for _, tt := range tests {
		if lines[tt.line] != tt.want {
			t.Errorf("line %d = %q, want %q", tt.line, lines[tt.line], tt.want)
		}
	}
}

// splitSides returns the visible left and right halves of the split rows
// in lines (full-width rows come back as left with right "<full>").
func splitSides(lines []string) [][2]string {
	var out [][2]string
	for _, l := range lines {
		left, right, ok := strings.Cut(visible(l), "│")
		if !ok {
			out = append(out, [2]string{left, "<full>"})
			continue
		}
		out = append(out, [2]string{strings.TrimRight(left, " "), strings.TrimPrefix(right, " ")})
	}
	return out
}

func TestDiffLinesSplit(t *testing.T) {
	lines := DiffLines(sampleDiff, 140, 40)
	checkDiffLines(t, lines, 140, 40)
	got := splitSides(lines)
	want := [][2]string{
		{"diff --git a/greet.go b/greet.go", "<full>"},
		{"index 3b18e51..a9c4f2d 100644", "<full>"},
		{"--- a/greet.go", "<full>"},
		{"+++ b/greet.go", "<full>"},
		{"@@ -1,5 +1,6 @@", "<full>"},
		{" 1  package greet", " 1  package greet"},
		{" 2", " 2  "},
		{" 3 -import \"fmt\"", " 3 +import \"strings\""},
		{"", " 4 +import \"unicode\""},
		{" 4", " 5  "},
		{" 5  // Hello says hello.", " 6  // Hello says hello."},
		{"@@ -10,5 +11,6 @@ func Hello(name string) string {", "<full>"},
		{"10      if name == \"\" {", "11      if name == \"\" {"},
		{"11 -        return \"hello\"", "12 +        name = \"world\""},
		{"12      }", "13      }"},
		{"13 -    return fmt.Sprintf(\"hello, %s\", name)", "14 +    name = strings.TrimFunc(name, unicode.IsSpace)"},
		{"", "15 +    return \"hello, \" + name"},
		{"14  }", "16  }"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// The bar sits in the same column on every split row.
	for i, l := range lines {
		if strings.Contains(l, "│") {
			left, _, _ := strings.Cut(l, "│")
			if w := ansi.StringWidth(left); w != (140-3)/2+1 {
				t.Errorf("row %d: bar at column %d, want %d", i, w, (140-3)/2+1)
			}
		}
	}
}

func TestDiffLinesSplitPairing(t *testing.T) {
	tests := []struct {
		name string
		diff string
		want [][2]string
	}{
		{"more removed than added",
			"@@ -1,4 +1,2 @@\n-a\n-b\n-c\n+x\n d\n",
			[][2]string{{"@@ -1,4 +1,2 @@", "<full>"}, {"1 -a", "1 +x"}, {"2 -b", ""}, {"3 -c", ""}, {"4  d", "2  d"}}},
		{"more added than removed",
			"@@ -1,2 +1,4 @@\n-a\n+x\n+y\n+z\n d\n",
			[][2]string{{"@@ -1,2 +1,4 @@", "<full>"}, {"1 -a", "1 +x"}, {"", "2 +y"}, {"", "3 +z"}, {"2  d", "4  d"}}},
		{"only added",
			"@@ -0,0 +1,2 @@\n+x\n+y\n",
			[][2]string{{"@@ -0,0 +1,2 @@", "<full>"}, {"", "1 +x"}, {"", "2 +y"}}},
		{"blocks split by context",
			"@@ -1,4 +1,5 @@\n-a\n+x\n c\n-b\n+y\n+z\n d\n",
			[][2]string{{"@@ -1,4 +1,5 @@", "<full>"}, {"1 -a", "1 +x"}, {"2  c", "2  c"}, {"3 -b", "3 +y"}, {"", "4 +z"}, {"4  d", "5  d"}}},
		{"note follows its side",
			"@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n",
			[][2]string{{"@@ -1 +1 @@", "<full>"}, {"1 -a", "1 +b"}, {"  \\ No newline at end of file", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := DiffLines(tt.diff, 140, 40)
			checkDiffLines(t, lines, 140, 40)
			if got := splitSides(lines); !slices.Equal(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestDiffLinesCases(t *testing.T) {
	tests := []struct {
		name          string
		diff          string
		width, height int
		want          []string // visible text
	}{
		{"empty", "", 80, 24, nil},
		{"zero width", sampleDiff, 0, 24, nil},
		{"zero height", sampleDiff, 80, 0, nil},
		{"not a diff is plain", "Applied 1 hunk.\n--- done\n+ ok\n", 80, 24,
			[]string{"Applied 1 hunk.", "--- done", "+ ok"}},
		{"not a diff keeps tabs as spaces", "a\tb\n", 80, 24, []string{"a   b"}},
		{"crlf", "@@ -1 +1 @@\r\n-a\r\n+b\r\n", 80, 24,
			[]string{"@@ -1 +1 @@", "1   -a", "  1 +b"}},
		{"numbers across hunks", "@@ -8,2 +8,3 @@\n a\n+b\n c\n@@ -98,2 +99,1 @@\n x\n-y\n", 80, 24,
			[]string{"@@ -8,2 +8,3 @@", " 8  8  a", "    9 +b", " 9 10  c",
				"@@ -98,2 +99,1 @@", "98 99  x", "99    -y"}},
		{"removed line that looks like a header", "@@ -1,2 +1,1 @@\n--- x\n+++ y\n", 80, 24,
			[]string{"@@ -1,2 +1,1 @@", "1   --- x", "  1 +++ y"}},
		{"miscounted hunk keeps going", "@@ -1,1 +1,1 @@\n-a\n+b\n c\n+d\n", 80, 24,
			[]string{"@@ -1,1 +1,1 @@", "1   -a", "  1 +b", "2 2  c", "  3 +d"}},
		{"next file after a hunk", "@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -5 +5 @@\n-c\n+d\n", 80, 24,
			[]string{"@@ -1 +1 @@", "1   -a", "  1 +b", "--- a/y", "+++ b/y", "@@ -5 +5 @@", "5   -c", "  5 +d"}},
		{"blank context line", "@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", 80, 24,
			[]string{"@@ -1,3 +1,3 @@", "1 1  a", "2 2  ", "3   -b", "  3 +c"}},
		{"cut to width", "@@ -1 +1 @@\n-abcdefghijklmnop\n", 12, 24,
			[]string{"@@ -1 +1 @@", "1   -abcdef…"}},
		{"wide characters cut", "@@ -1 +1 @@\n+世界世界世界\n", 11, 24,
			[]string{"@@ -1 +1 @@", "  1 +世界…"}},
		{"cut to height", sampleDiff, 80, 6,
			[]string{"diff --git a/greet.go b/greet.go", "index 3b18e51..a9c4f2d 100644",
				"--- a/greet.go", "+++ b/greet.go", "@@ -1,5 +1,6 @@", "… 16 more lines"}},
		{"height 1", sampleDiff, 80, 1, []string{"… 21 more lines"}},
		{"split cut to height counts rows", sampleDiff, 140, 3,
			[]string{"diff --git a/greet.go b/greet.go", "index 3b18e51..a9c4f2d 100644", "… 16 more lines"}},
		{"marker cut to width", sampleDiff, 5, 1, []string{"… 21…"}},
		{"bad hunk header is plain", "@@ -x +1 @@\n-a\n", 80, 24, []string{"@@ -x +1 @@", "-a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := DiffLines(tt.diff, tt.width, tt.height)
			checkDiffLines(t, lines, max(tt.width, 0), max(tt.height, 0))
			got := visibleLines(lines)
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestDiffLinesHostileText(t *testing.T) {
	diff := "--- a/x\x1b]0;title\x07\n+++ b/x\x1b[2J\n@@ -1 +1 @@ \x1b]52;c;aGk=\x07\n" +
		"-old\x1b[10;1H\x1bPdcs\x1b\\\n+new\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\\u009b31m\u202e\n"
	for _, width := range []int{80, 140} {
		lines := DiffLines(diff, width, 24)
		checkDiffLines(t, lines, width, 24)
		joined := strings.Join(lines, "\n")
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1b[10;1H", "\x1bP", "\x07", "\u009b", "\u202e"} {
			if strings.Contains(joined, bad) {
				t.Errorf("width %d: output contains %q: %q", width, bad, joined)
			}
		}
		for _, l := range lines {
			if rest := sgrRE.ReplaceAllString(l, ""); strings.IndexByte(rest, 0x1b) >= 0 {
				t.Errorf("width %d: escape other than SGR in %q", width, l)
			}
		}
		if !strings.Contains(joined, "-old") || !strings.Contains(joined, "+newlink") {
			t.Errorf("width %d: text lost: %q", width, visibleLines(lines))
		}
	}
}

func TestDiffLinesFitEverySize(t *testing.T) {
	diffs := append([]string{sampleDiff, "plain text\n\twith a tab and 世界\n"}, demoDiffs(t)...)
	for _, diff := range diffs {
		for width := 1; width <= 160; width += 3 {
			for _, height := range []int{1, 2, 3, 7, 30} {
				checkDiffLines(t, DiffLines(diff, width, height), width, height)
			}
		}
	}
}

// demoDiffs returns the diffs of the demo's edit steps, in order: the tool
// result when it is a diff, otherwise the "diff" argument of the call.
func demoDiffs(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var order []string
	args := map[string]*strings.Builder{}
	results := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var ev struct {
			Type       string          `json:"type"`
			ToolCallID string          `json:"toolCallId"`
			Delta      json.RawMessage `json:"delta"`
			Content    json.RawMessage `json:"content"`
			Metadata   struct {
				Category string `json:"category"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("demo.jsonl line %d: %v", n, err)
		}
		switch ev.Type {
		case "TOOL_CALL_START":
			if ev.Metadata.Category == "edit" {
				order = append(order, ev.ToolCallID)
				args[ev.ToolCallID] = &strings.Builder{}
			}
		case "TOOL_CALL_ARGS":
			if b, ok := args[ev.ToolCallID]; ok {
				var delta string
				if err := json.Unmarshal(ev.Delta, &delta); err != nil {
					t.Fatalf("demo.jsonl line %d: delta: %v", n, err)
				}
				b.WriteString(delta)
			}
		case "TOOL_CALL_RESULT":
			var s string
			if _, ok := args[ev.ToolCallID]; ok && json.Unmarshal(ev.Content, &s) == nil {
				results[ev.ToolCallID] = s
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var diffs []string
	for _, id := range order {
		if r := results[id]; strings.Contains(r, "\n@@ -") || strings.HasPrefix(r, "@@ -") {
			diffs = append(diffs, r)
			continue
		}
		var a struct {
			Diff string `json:"diff"`
		}
		if err := json.Unmarshal([]byte(args[id].String()), &a); err != nil {
			t.Fatalf("edit step %s: arguments: %v", id, err)
		}
		if a.Diff != "" {
			diffs = append(diffs, a.Diff)
		}
	}
	if len(diffs) == 0 {
		t.Fatal("the demo has no edit step with a diff")
	}
	return diffs
}

// diffGolden compares lines with testdata/<test name>.golden, or rewrites it with -update.
func diffGolden(t *testing.T, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	golden.RequireEqual(t, got)
}

func TestDiffLinesGolden(t *testing.T) {
	type input struct {
		name, diff    string
		width, height int
	}
	inputs := []input{
		{"sample", sampleDiff, 80, 24},
		{"sample", sampleDiff, 140, 24},
	}
	for i, d := range demoDiffs(t) {
		for _, width := range []int{80, 140} {
			inputs = append(inputs, input{fmt.Sprintf("demo-edit-%d", i+1), d, width, 30})
		}
	}
	for _, in := range inputs {
		name := fmt.Sprintf("%s-%dx%d", in.name, in.width, in.height)
		t.Run(name, func(t *testing.T) {
			lines := DiffLines(in.diff, in.width, in.height)
			checkDiffLines(t, lines, in.width, in.height)
			diffGolden(t, lines)
		})
	}
}

func FuzzDiffLines(f *testing.F) {
	f.Add(sampleDiff, uint8(80), uint8(24))
	f.Add(sampleDiff, uint8(140), uint8(5))
	f.Add("@@ -0,0 +1 @@\n+\x1b]52;c;x\x07\n\\ x\n", uint8(130), uint8(3))
	f.Fuzz(func(t *testing.T, diff string, width, height uint8) {
		checkDiffLines(t, DiffLines(diff, int(width), int(height)), int(width), int(height))
	})
}

// bigDiff returns a diff of about n lines: hunks of Go-like code with
// tabs, each with context, a removed and an added block.
func bigDiff(n int) string {
	var b strings.Builder
	b.WriteString("diff --git a/big.go b/big.go\n--- a/big.go\n+++ b/big.go\n")
	lines := 3
	for h := 0; lines < n; h++ {
		start := 1 + h*40
		fmt.Fprintf(&b, "@@ -%d,14 +%d,15 @@ func f%d() {\n", start, start+h, h)
		for i := range 4 {
			fmt.Fprintf(&b, " \tctx%d := compute(%d, \"context line\")\n", i, h)
		}
		for i := range 5 {
			fmt.Fprintf(&b, "-\t\tif err := old%d(ctx, %d); err != nil { return fmt.Errorf(\"old: %%w\", err) }\n", i, h)
		}
		for i := range 6 {
			fmt.Fprintf(&b, "+\t\tif err := new%d(ctx, %d); err != nil {\n", i, h)
		}
		for i := range 5 {
			fmt.Fprintf(&b, " \treturn result%d // trailing context\n", i)
		}
		lines += 21
	}
	return b.String()
}

// BenchmarkDiffLines renders a 2,000-line diff into panels of a screen's
// height (what a frame needs) and whole (the worst case).
func BenchmarkDiffLines(b *testing.B) {
	diff := bigDiff(2000)
	for _, size := range [][2]int{{80, 30}, {140, 30}, {80, 3000}, {140, 3000}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				DiffLines(diff, size[0], size[1])
			}
		})
	}
}
