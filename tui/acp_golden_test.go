package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// acpSession folds the hand-written ACP coding session recording.
func acpSession(t *testing.T) *fold.Fold {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "acp", "coding-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadACPRecording(f)
	if err != nil {
		t.Fatal(err)
	}
	fd := fold.New(fold.Options{})
	fd.Apply(recs...)
	return fd
}

// The computer panel draws ACP steps without knowing they came from ACP:
// the edit step from its diffs, the execute steps from their terminal
// output (colours kept, exit code in the status line), and the plan.
func TestACPGolden(t *testing.T) {
	fd := acpSession(t)
	steps := fd.Steps()
	byID := map[string]int{}
	for i, s := range steps {
		byID[s.ToolCallID] = i
	}
	cases := []struct {
		name, id string
		wants    []string
	}{
		{"edit", "call-edit", []string{"--- /home/dev/tempo/internal/schedule/length.go", "@@ -2,10 +2,10 @@", "strings.HasSuffix", "Edited internal/schedule/length.go (+3 −4)."}},
		{"edit-new-file", "call-new", []string{"--- /dev/null", "+++ /home/dev/tempo/internal/schedule/length_cases_test.go", "package schedule"}},
		{"execute-meta-terminal", "call-test", []string{"$ go test ./internal/schedule/", styles.RedFg + "--- FAIL: TestParseLength (0.00s)", "exit 1", "failed"}},
		{"execute-client-terminal", "call-retest", []string{"$ go test ./...", styles.GreenFg + "ok" + styles.Reset, "done"}},
	}
	for _, c := range cases {
		for _, width := range []int{80, 120} {
			name := c.name + "-" + strconv.Itoa(width)
			t.Run(name, func(t *testing.T) {
				i, ok := byID[c.id]
				if !ok {
					t.Fatalf("no step %s", c.id)
				}
				s := steps[i]
				lines := computer.PanelLines(s, width, 20)
				checkPanel(t, lines, width, 20)
				got := strings.Join(lines, "\n") + "\n" + computer.PanelStatus(s, i, len(steps), width) + "\n"
				bare := sgrRE.ReplaceAllString(got, "")
				for _, w := range c.wants {
					if !strings.Contains(got, w) && !strings.Contains(bare, w) {
						t.Errorf("view lacks %q:\n%s", w, got)
					}
				}
				golden.RequireEqual(t, got)
			})
		}
	}
	var plan *model.Item
	for _, it := range fd.Items() {
		if it.Kind == model.ItemPlan {
			plan = it
		}
	}
	if plan == nil {
		t.Fatal("the session has no plan item")
	}
	for _, width := range []int{80, 120} {
		name := "plan-" + strconv.Itoa(width)
		t.Run(name, func(t *testing.T) {
			lines := render.PlanLines(plan.Data, width, 12)
			checkPanel(t, lines, width, 12)
			got := strings.Join(lines, "\n") + "\n"
			bare := sgrRE.ReplaceAllString(got, "")
			for _, w := range []string{"3 of 4 done", "☑! Run the failing tests", "☑ Fix the parser", "☐ Check the docs"} {
				if !strings.Contains(bare, w) {
					t.Errorf("plan lacks %q:\n%s", w, got)
				}
			}
			golden.RequireEqual(t, got)
		})
	}
}

// A plan longer than the panel keeps what is still to do in view: the
// completed entries at the top give way first, then the end is cut.
func TestPlanLinesFit(t *testing.T) {
	data := []byte(`[{"content":"one","priority":"low","status":"completed"},{"content":"two","priority":"low","status":"completed"},` +
		`{"content":"three","priority":"low","status":"completed"},{"content":"four is a much longer entry that wraps onto a second line","priority":"medium","status":"in_progress"},` +
		`{"content":"five","priority":"low","status":"pending"},{"content":"six \u001b]52;c;aGk=\u0007","priority":"low","status":"pending"}]`)
	lines := render.PlanLines(data, 30, 5)
	checkPanel(t, lines, 30, 5)
	got := plainLines(lines)
	want := []string{"━━━━━━━━━───────── 3 of 6 done", "☑ 3 done", "◐ four is a much longer entry", "  that wraps onto a second", "… 3 more lines"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	all := render.PlanLines(data, 30, 20)
	checkPanel(t, all, 30, 20)
	if s := strings.Join(plainLines(all), "\n"); !strings.Contains(s, "☐ six") || strings.Contains(strings.Join(all, ""), "\x1b]") {
		t.Errorf("hostile entry: %q", all)
	}
	if render.PlanLines([]byte(`{"not":"a list"}`), 30, 5) != nil || render.PlanLines(data, 0, 5) != nil || render.PlanLines(data, 30, 0) != nil {
		t.Error("bad input drew something")
	}
	if got := plainLines(render.PlanLines([]byte(`[]`), 30, 5)); len(got) != 1 || got[0] != "0 of 0 done" {
		t.Errorf("empty plan: %q", got)
	}
}

// An ACP step's title stands in for a missing command, and a read's
// location with a line still names the file for syntax colours.
func TestACPPanelTitlesAndLocations(t *testing.T) {
	code := &model.Step{Category: model.CategoryExecute, Status: model.StatusCompleted, Title: "`ls -la`", Result: "a\n"}
	if got := plainLines(computer.PanelLines(code, 40, 4)); got[0] != "$ ls -la" || got[1] != "a" {
		t.Errorf("code-span title: %q", got)
	}
	words := &model.Step{Category: model.CategoryExecute, Status: model.StatusRunning, Title: "Run the tests"}
	if got := computer.PanelLines(words, 40, 4); !strings.HasPrefix(got[0], styles.Bold+"Run the tests") {
		t.Errorf("title heading: %q", got)
	}
	read := &model.Step{Category: model.CategoryRead, Status: model.StatusCompleted, Location: "/w/main.go:3",
		Locations: []model.Location{{Path: "/w/main.go", Line: 3}}, Result: "package main\n"}
	plain := &model.Step{Category: model.CategoryRead, Status: model.StatusCompleted, Location: "/w/main.go", Result: "package main\n"}
	if a, b := computer.PanelLines(read, 40, 4), computer.PanelLines(plain, 40, 4); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("read with a line:\n%q\nwithout:\n%q", a, b)
	}
}
