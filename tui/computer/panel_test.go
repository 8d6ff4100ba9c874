package computer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// demoSteps folds the embedded demo log and returns its steps.
func demoSteps(t testing.TB) []*model.Step {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	fd := fold.New(fold.Options{})
	if _, err := fd.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	return fd.Steps()
}

// checkPanel fails unless lines are at most height lines of exactly width
// cells that hold no escape sequence but SGR and no control character.
func checkPanel(t testing.TB, lines []string, width, height int) {
	t.Helper()
	if len(lines) > height {
		t.Errorf("%d×%d: got %d lines", width, height, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != width {
			t.Errorf("%d×%d: line %d is %d cells: %q", width, height, i, n, l)
		}
		bare := viewtest.SGR.ReplaceAllString(l, "")
		for _, r := range bare {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("%d×%d: line %d holds control %U: %q", width, height, i, r, l)
				break
			}
		}
	}
}

// panelGoldenStep picks the demo step each category's golden shows: the
// first of the category, and for execute the first that failed (colours,
// an exit code).
func panelGoldenStep(steps []*model.Step, c model.Category) (int, *model.Step) {
	found := -1
	for i, s := range steps {
		if s.Category != c {
			continue
		}
		if c == model.CategoryExecute && s.Status == model.StatusFailed {
			return i, s
		}
		if found < 0 {
			found = i
		}
	}
	if found < 0 {
		return -1, nil
	}
	return found, steps[found]
}

func TestPanelGolden(t *testing.T) {
	steps := demoSteps(t)
	// What each view must show, whatever the golden holds.
	wants := map[model.Category][]string{
		model.CategoryExecute:    {"$ gotestsum --format testname ./...", "FAIL", "failed", "exit 1"},
		model.CategoryRead:       {" 1 .PHONY: test", " 5 test-go:"},
		model.CategoryEdit:       {"+++ b/internal/schedule/length.go", "@@ -22,21 +22,11 @@", "… 8 more lines"},
		model.CategorySearch:     {"⌕ ParseLength in .", "cmd/tempo-server/main.go:58:", styles.Found + "ParseLength" + styles.Reset},
		model.CategoryThink:      {"Fix plan:", "1. ParseLength"},
		model.CategoryFetch:      {"https://pkg.go.dev/time#ParseDuration", "▀", "ParseDuration parses"},
		model.CategoryDelete:     {"Deleted internal/schedule/length_old.go", "arguments", "\x1b[34m" + `"path"` + styles.Reset, "Deleted internal/schedule/length_old.go (19 lines)."},
		model.CategoryMove:       {"Moved app/src/main/kotlin/LengthFormatTest.kt → app/src/test/kotlin/LengthForma…", "(created app/src/test/kotlin/)."},
		model.CategorySwitchMode: {"Mode → code", "\x1b[32m" + `"Cause found; ready to edit."` + styles.Reset},
		model.CategoryOther:      {"Used screenshot · window Tempo", "▀", `Captured window "Tempo"`},
	}
	for _, c := range model.Categories {
		t.Run(string(c), func(t *testing.T) {
			i, s := panelGoldenStep(steps, c)
			if s == nil {
				t.Fatalf("the demo has no %s step", c)
			}
			lines := PanelLines(s, 80, 20)
			checkPanel(t, lines, 80, 20)
			status := PanelStatus(s, i, len(steps), 80)
			got := strings.Join(lines, "\n") + "\n" + status + "\n"
			bare := viewtest.SGR.ReplaceAllString(got, "")
			for _, w := range wants[c] {
				// Wants with colours are looked for as drawn, others in the bare text.
				if !strings.Contains(got, w) && !strings.Contains(bare, w) {
					t.Errorf("view lacks %q:\n%s", w, got)
				}
			}
			golden.RequireEqual(t, got)
		})
	}
}

// plainLines is lines without colours and trailing spaces.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(viewtest.SGR.ReplaceAllString(l, ""), " ")
	}
	return out
}

func TestPanelFallbacks(t *testing.T) {
	tests := []struct {
		name string
		step model.Step
		want []string // the plain lines, in full
	}{
		{
			name: "execute without args or result",
			step: model.Step{Category: model.CategoryExecute, ToolName: "bash", Status: model.StatusRunning},
			want: []string{"Running command", "no arguments or result"},
		},
		{
			name: "delete without args or result",
			step: model.Step{Category: model.CategoryDelete, ToolName: "rm", Status: model.StatusCompleted},
			want: []string{"Deleted", "no arguments or result"},
		},
		{
			name: "other without args or result",
			step: model.Step{Category: model.CategoryOther, ToolName: "ping", Status: model.StatusCompleted},
			want: []string{"Used ping", "no arguments or result"},
		},
		{
			name: "invalid JSON args",
			step: model.Step{Category: model.CategoryEdit, ToolName: "edit", Status: model.StatusFailed,
				Args: `{"path": "a.go", "diff": "--- a`, Result: "bad arguments"},
			want: []string{"Edit failed", "arguments (not valid JSON)", `  {"path": "a.go", "diff": "--- a`, "result", "  bad arguments"},
		},
		{
			name: "invalid JSON args of a command with output",
			step: model.Step{Category: model.CategoryExecute, ToolName: "bash", Status: model.StatusFailed,
				Args: `{"command": "ls -la`, Result: "ls: bad option"},
			want: []string{"ls: bad option"},
		},
		{
			name: "edit without a diff",
			step: model.Step{Category: model.CategoryEdit, ToolName: "str_replace", Status: model.StatusCompleted,
				Location: "a.go", Args: `{"path":"a.go","old":"x","new":1.5,"all":true,"n":null}`,
				ArgsJSON: json.RawMessage(`{"path":"a.go","old":"x","new":1.5,"all":true,"n":null}`),
				Result:   `{"ok":true}`},
			want: []string{"Edited · a.go", "arguments", "  {", `    "path": "a.go",`, `    "old": "x",`, `    "new": 1.5,`,
				`    "all": true,`, `    "n": null`, "  }", "result", "  {", `    "ok": true`, "  }"},
		},
		{
			name: "edit whose result is the diff",
			step: model.Step{Category: model.CategoryEdit, ToolName: "apply_patch", Status: model.StatusCompleted,
				Result: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n"},
			want: []string{"--- a/x", "+++ b/x", "@@ -1 +1 @@", "1   -old", "  1 +new"},
		},
		{
			name: "failed read shows its error as JSON view",
			step: model.Step{Category: model.CategoryRead, ToolName: "read_file", Status: model.StatusFailed,
				Location: "nope.go", Args: `{"path":"nope.go"}`, ArgsJSON: json.RawMessage(`{"path":"nope.go"}`),
				Result: "open nope.go: no such file or directory"},
			want: []string{"Read failed · nope.go", "arguments", "  {", `    "path": "nope.go"`, "  }", "result",
				"  open nope.go: no such file or directory"},
		},
		{
			name: "execute still running",
			step: model.Step{Category: model.CategoryExecute, ToolName: "bash", Status: model.StatusRunning,
				Args: `{"command":["bash","-lc","make\ntest"]}`, ArgsJSON: json.RawMessage(`{"command":["bash","-lc","make\ntest"]}`)},
			want: []string{"$ bash -lc 'make ↵ test'"},
		},
		{
			name: "execute without output",
			step: model.Step{Category: model.CategoryExecute, ToolName: "bash", Status: model.StatusCompleted, Location: "true"},
			want: []string{"$ true", "no output"},
		},
		{
			name: "search without matches",
			step: model.Step{Category: model.CategorySearch, ToolName: "grep", Status: model.StatusCompleted,
				Args: `{"pattern":"(","path":"src"}`, ArgsJSON: json.RawMessage(`{"pattern":"(","path":"src"}`)},
			want: []string{"⌕ ( in src", "no matches"},
		},
		{
			name: "think from its result",
			step: model.Step{Category: model.CategoryThink, ToolName: "think", Status: model.StatusCompleted,
				Result: "first\n\tindented"},
			want: []string{"first", "        indented"},
		},
		{
			name: "fetch of nothing",
			step: model.Step{Category: model.CategoryFetch, ToolName: "fetch", Status: model.StatusPending},
			want: []string{"Fetching", "no arguments or result"},
		},
		{
			name: "move from its location",
			step: model.Step{Category: model.CategoryMove, ToolName: "mv", Status: model.StatusRunning, Location: "a → b"},
			want: []string{"Moving a → b", "no arguments or result"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := PanelLines(&tt.step, 60, 20)
			checkPanel(t, lines, 60, 20)
			got := plainLines(lines)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestPanelSearchHighlight(t *testing.T) {
	s := &model.Step{Category: model.CategorySearch, Status: model.StatusCompleted,
		Args:     `{"pattern":"foo|bar","-i":true}`,
		ArgsJSON: json.RawMessage(`{"pattern":"foo|bar","-i":true}`),
		Result:   "a.go:3:x := Foo(bar)\nplain FOO line\nb.go:10-context\n"}
	lines := PanelLines(s, 40, 10)
	checkPanel(t, lines, 40, 10)
	want := []string{
		"⌕ foo|bar",
		styles.MatchPath + "a.go" + styles.Reset + ":" + styles.GreenFg + "3" + styles.Reset + ":x := " + styles.Found + "Foo" + styles.Reset + "(" + styles.Found + "bar" + styles.Reset + ")",
		"plain " + styles.Found + "FOO" + styles.Reset + " line",
		styles.MatchPath + "b.go" + styles.Reset + ":" + styles.GreenFg + "10" + styles.Reset + "-context",
	}
	for i, w := range want[1:] {
		if !strings.HasPrefix(lines[i+1], w) {
			t.Errorf("line %d = %q, want it to start with %q", i+1, lines[i+1], w)
		}
	}
}

func TestPanelLongOutput(t *testing.T) {
	s := benchExecuteStep(1000)
	lines := plainLines(PanelLines(s, 60, 11))
	if len(lines) != 11 || lines[0] != "$ make test" || !strings.Contains(lines[5], "… 991 lines …") {
		t.Errorf("got\n%s", strings.Join(lines, "\n"))
	}
	// The think and fetch views count what they leave out.
	think := &model.Step{Category: model.CategoryThink, Result: strings.Repeat("word ", 100) + "\nsecond\nthird"}
	lines = plainLines(PanelLines(think, 20, 4))
	if lines[3] != "… 24 more lines" {
		t.Errorf("think cut: got %q", lines)
	}
}

func TestPanelScreenshotUnderView(t *testing.T) {
	steps := demoSteps(t)
	_, s := panelGoldenStep(steps, model.CategoryOther)
	for _, h := range []int{7, 8, 20, 40} {
		lines := PanelLines(s, 80, h)
		checkPanel(t, lines, 80, h)
		shown := strings.Contains(strings.Join(lines, ""), "▀")
		if shown != (h >= panelShotMinHeight) {
			t.Errorf("height %d: screenshot shown = %v", h, shown)
		}
		if !strings.Contains(lines[0], "Used screenshot") {
			t.Errorf("height %d: first line %q", h, lines[0])
		}
	}
}

// hostile is agent text that tries to write the clipboard, clear the screen,
// set the title, move the cursor, send DCS and hide text behind bidi controls.
const hostile = "A\x1b]52;c;ZXZpbA==\x07B\x1b[2JC\x1b]0;title\x07D\x1b[10;10HE\x1bP1$qm\x1b\\F\u202eG\u009b2JH\x1b]8;;http://x\x1b\\I\rJ\x08K\x1b[31mred\x1b[0m"

func hostileSteps() []*model.Step {
	var out []*model.Step
	args, _ := json.Marshal(map[string]any{
		"command": hostile, "diff": "--- a/" + hostile + "\n+++ b/x\n@@ -1 +1 @@\n-" + hostile + "\n+" + hostile + "\n",
		"path": hostile, "pattern": hostile, "url": hostile, "thought": hostile, "from": hostile, "to": hostile,
		"mode": hostile, hostile: []any{hostile, 1, true, nil},
	})
	for _, c := range model.Categories {
		for _, withArgs := range []bool{true, false} {
			s := &model.Step{Category: c, ToolName: hostile, Location: hostile, Status: model.StatusCompleted,
				Result: hostile + "\n" + hostile + ":12:" + hostile}
			if withArgs {
				s.Args, s.ArgsJSON = string(args), args
			} else {
				s.Args = hostile // not JSON
			}
			out = append(out, s)
		}
	}
	return out
}

func TestPanelHostile(t *testing.T) {
	banned := []string{"\x1b]", "\x1b[2J", "\x1b[10;10H", "\x1bP", "\x07", "\u202e", "\u009b", "\r", "\x08"}
	for _, s := range hostileSteps() {
		for _, size := range [][2]int{{80, 20}, {200, 60}, {30, 6}} {
			lines := PanelLines(s, size[0], size[1])
			checkPanel(t, lines, size[0], size[1])
			lines = append(lines, PanelStatus(s, 0, 1, size[0]))
			out := strings.Join(lines, "\n")
			for _, b := range banned {
				if strings.Contains(out, b) {
					t.Errorf("%s %v: output holds %q:\n%q", s.Category, size, b, out)
				}
			}
			if bare := viewtest.SGR.ReplaceAllString(out, ""); strings.Contains(bare, "\x1b") {
				t.Errorf("%s %v: an escape other than SGR: %q", s.Category, size, bare)
			}
			if !strings.Contains(out, "A") {
				t.Errorf("%s %v: the text around the escapes is gone: %q", s.Category, size, out)
			}
		}
	}
}

func TestPanelSizes(t *testing.T) {
	steps := demoSteps(t)
	steps = append(steps, hostileSteps()...)
	steps = append(steps,
		&model.Step{Category: model.CategoryRead, Result: "日本語のテキスト\tと\tタブ\n" + strings.Repeat("x", 5000)},
		&model.Step{Category: model.CategoryThink, Result: strings.Repeat("長い思考 ", 400)},
		&model.Step{Category: "unknown", ToolName: "x"},
		benchExecuteStep(500),
	)
	widths := []int{1, 2, 3, 4, 7, 12, 20, 40, 79, 80, 100, 119, 120, 160, 200}
	heights := []int{1, 2, 3, 4, 7, 8, 12, 20, 40}
	for i, s := range steps {
		for _, w := range widths {
			for _, h := range heights {
				lines := PanelLines(s, w, h)
				if len(lines) == 0 {
					t.Errorf("step %d (%s) at %d×%d: no lines", i, s.Category, w, h)
				}
				checkPanel(t, lines, w, h)
			}
			if st := PanelStatus(s, i, len(steps), w); ansi.StringWidth(st) != w {
				t.Errorf("status at width %d is %d cells: %q", w, ansi.StringWidth(st), st)
			}
		}
	}
	for _, size := range [][2]int{{0, 10}, {10, 0}, {-1, 5}, {5, -1}} {
		if got := PanelLines(steps[0], size[0], size[1]); got != nil {
			t.Errorf("%v: got %q, want nil", size, got)
		}
	}
	if got := PanelLines(nil, 80, 20); got != nil {
		t.Errorf("nil step: got %q", got)
	}
}

func TestPanelStatus(t *testing.T) {
	exit := func(n int) *int { return &n }
	tests := []struct {
		step         *model.Step
		index, total int
		width        int
		want         string
	}{
		{&model.Step{Status: model.StatusCompleted, DurationMS: 4483}, 2, 30, 60, "step 3 of 30 · done · 4.5s"},
		{&model.Step{Status: model.StatusFailed, DurationMS: 4483, ExitCode: exit(2)}, 2, 30, 60, "step 3 of 30 · failed · 4.5s · exit 2"},
		{&model.Step{Status: model.StatusCompleted, DurationMS: 340, ExitCode: exit(0)}, 0, 1, 60, "step 1 of 1 · done · 340ms"},
		{&model.Step{Status: model.StatusRunning}, 6, 7, 60, "step 7 of 7 · running"},
		{&model.Step{Status: model.StatusFailed, ExitCode: exit(1)}, 6, 7, 60, "step 7 of 7 · failed · exit 1"},
		{&model.Step{}, 0, 3, 60, "step 1 of 3 · pending"},
		{&model.Step{Status: model.StatusCancelled, DurationMS: 65000}, 9, 10, 60, "step 10 of 10 · cancelled · 1m5s"},
		{&model.Step{Status: model.StatusCompleted, DurationMS: 4483}, 2, 30, 20, "step 3 of 30 · done…"},
		{&model.Step{Status: model.StatusCompleted, DurationMS: 4483}, 2, 30, 8, "step 3 …"},
		{nil, 0, 0, 10, ""},
	}
	for _, tt := range tests {
		got := PanelStatus(tt.step, tt.index, tt.total, tt.width)
		if n := ansi.StringWidth(got); n != tt.width {
			t.Errorf("%q is %d cells, want %d", got, n, tt.width)
		}
		if plain := strings.TrimRight(viewtest.SGR.ReplaceAllString(got, ""), " "); plain != tt.want {
			t.Errorf("got %q, want %q", plain, tt.want)
		}
	}
	failed := PanelStatus(&model.Step{Status: model.StatusFailed, ExitCode: exit(2)}, 0, 1, 40)
	if !strings.Contains(failed, "\x1b["+styles.ParamRed+"mfailed") || !strings.Contains(failed, "\x1b["+styles.ParamRed+"mexit 2") {
		t.Errorf("failure not red: %q", failed)
	}
	if got := PanelStatus(&model.Step{}, 0, 1, 0); got != "" {
		t.Errorf("width 0: got %q", got)
	}
}

// benchExecuteStep is a finished command whose output has n coloured lines.
func benchExecuteStep(n int) *model.Step {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\x1b[32mok\x1b[0m  \tpkg/%d\t(%d.%02ds)\tsome output of line %s\n", i, i%7, i%100, strconv.Itoa(i))
	}
	args := json.RawMessage(`{"command":"make test"}`)
	code := 0
	return &model.Step{Category: model.CategoryExecute, ToolName: "bash", Location: "make test",
		Status: model.StatusCompleted, Args: string(args), ArgsJSON: args, Result: b.String(),
		ExitCode: &code, DurationMS: 12345}
}

// BenchmarkPanelLines draws an execute step with 10,000 lines of coloured
// output in a 100×40 panel.
func BenchmarkPanelLines(b *testing.B) {
	s := benchExecuteStep(10000)
	b.ReportAllocs()
	for b.Loop() {
		if lines := PanelLines(s, 100, 40); len(lines) != 40 {
			b.Fatalf("%d lines", len(lines))
		}
	}
}
