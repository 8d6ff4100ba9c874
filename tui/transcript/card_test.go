package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/internal/testkit/replysteps"
	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

func TestComputerCardShape(t *testing.T) {
	c := CardState{Steps: replysteps.Steps(t, false), Current: 4, Live: true}
	full := ComputerCard(c, 60)
	if len(full) != 6 {
		t.Fatalf("%d lines, want 6", len(full))
	}
	viewtest.CheckWidths(t, full, 60)
	v := viewtest.VisibleLines(full)
	if !strings.HasPrefix(v[0], "╭─ computer ─") || !strings.HasSuffix(v[0], "─╮") {
		t.Errorf("top %q", v[0])
	}
	if v[5] != "╰"+strings.Repeat("─", 58)+"╯" {
		t.Errorf("bottom %q", v[5])
	}
	for _, l := range v[1:5] {
		if !strings.HasPrefix(l, "│ ") || !strings.HasSuffix(l, " │") {
			t.Errorf("side %q", l)
		}
	}
	compact := ComputerCard(c, 20)
	if len(compact) != 3 {
		t.Fatalf("compact: %d lines, want 3", len(compact))
	}
	viewtest.CheckWidths(t, compact, 20)
	if ComputerCard(c, 0) != nil {
		t.Error("width 0 gives lines")
	}
}

func TestComputerCardScreenshot(t *testing.T) {
	steps := replysteps.Steps(t, true)
	for _, tc := range []struct {
		name    string
		current int
		shot    bool
		icon    string
	}{
		{"before the screenshot", 0, false, "▤"},
		{"at the screenshot", 1, true, ""},
		{"after the screenshot", 4, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := ComputerCard(CardState{Steps: steps, Current: tc.current}, 60)
			viewtest.CheckWidths(t, lines, 60)
			body := strings.Join(lines[1:5], "\n")
			if got := strings.Contains(body, "▀") && strings.Contains(body, "\x1b[38;2;"); got != tc.shot {
				t.Errorf("thumbnail drawn = %v, want %v:\n%s", got, tc.shot, strings.Join(viewtest.VisibleLines(lines), "\n"))
			}
			if tc.icon != "" && !strings.Contains(viewtest.Visible(lines[2]), tc.icon) {
				t.Errorf("icon %s missing:\n%s", tc.icon, strings.Join(viewtest.VisibleLines(lines), "\n"))
			}
		})
	}

	// A later screenshot that cannot be shown leaves the older one in place.
	steps[3].Screenshots = []model.Image{{Data: []byte("not a png")}, {URL: "https://example.com/x.png"}, {Data: replysteps.PNG(t), Truncated: true}}
	lines := ComputerCard(CardState{Steps: steps, Current: 4}, 60)
	if !strings.Contains(strings.Join(lines, ""), "▀") {
		t.Error("a broken later screenshot hid the older one")
	}
}

func TestComputerCardLiveAndDone(t *testing.T) {
	steps := replysteps.Steps(t, false)
	live := ComputerCard(CardState{Steps: steps, Current: 4, Live: true}, 60)
	viewtest.CheckWidths(t, live, 60)
	v := viewtest.VisibleLines(live)
	if !strings.Contains(v[1], "Running command · go test ./...") {
		t.Errorf("operation line %q", v[1])
	}
	if !strings.Contains(v[2], "5 steps · ● LIVE") || !strings.Contains(live[2], "\x1b[32m● LIVE"+styles.Reset) {
		t.Errorf("live line %q", live[2])
	}
	if !strings.Contains(v[3], "◐ running") {
		t.Errorf("status line %q", v[3])
	}
	if !strings.Contains(v[2], "❯") && !strings.Contains(v[1], "❯") {
		t.Errorf("no execute icon:\n%s", strings.Join(v, "\n"))
	}

	steps[4].Status, steps[4].DurationMS = model.StatusCompleted, 125000
	done := ComputerCard(CardState{Steps: steps, Current: 4}, 60)
	viewtest.CheckWidths(t, done, 60)
	v = viewtest.VisibleLines(done)
	if !strings.Contains(v[1], "Ran command · go test ./...") {
		t.Errorf("operation line %q", v[1])
	}
	if strings.Contains(strings.Join(v, ""), "LIVE") || !strings.Contains(v[2], "5 steps") {
		t.Errorf("done card:\n%s", strings.Join(v, "\n"))
	}
	if !strings.Contains(v[3], "✓ done · 2m5s") {
		t.Errorf("status line %q", v[3])
	}

	failed := viewtest.VisibleLines(ComputerCard(CardState{Steps: steps, Current: 2}, 60))
	if !strings.Contains(failed[3], "✗ failed · exit 1 · 2.1s") {
		t.Errorf("failed status line %q", failed[3])
	}

	for _, tc := range []struct {
		width int
		live  bool
		want  string
	}{
		{23, true, "╰─ 5 steps ● LIVE ────╯"},
		{16, true, "╰─ 5 ● LIVE ───╯"},
		{10, true, "╰─ 5 ● ──╯"},
		{7, true, "╰─ 5 ─╯"},
		{23, false, "╰─ 5 steps ───────────╯"},
		{9, false, "╰─ 5 ───╯"},
	} {
		lines := ComputerCard(CardState{Steps: steps, Current: 4, Live: tc.live}, tc.width)
		if got := viewtest.Visible(lines[2]); got != tc.want {
			t.Errorf("compact width %d live %v: bottom %q, want %q", tc.width, tc.live, got, tc.want)
		}
	}
}

func TestComputerCardHostileLabel(t *testing.T) {
	steps := []*model.Step{{Category: model.CategoryFetch, Status: model.StatusRunning,
		Location: "https://x\x1b]52;c;aGVsbG8=\x07\x1b[2J\x1b]0;title\x07/\nnext"}}
	for _, width := range []int{12, 30, 60} {
		lines := ComputerCard(CardState{Steps: steps, Live: true}, width)
		viewtest.CheckWidths(t, lines, width)
		all := strings.Join(lines, "")
		for _, bad := range []string{"\x1b]", "\x1b[2J", "52;", "title", "\x07"} {
			if strings.Contains(all, bad) {
				t.Errorf("width %d: card carries %q", width, bad)
			}
		}
	}
}

func TestComputerCardCutsLongLabel(t *testing.T) {
	steps := []*model.Step{{Category: model.CategoryRead, Status: model.StatusRunning,
		Location: strings.Repeat("deep/", 40) + "App.kt"}}
	for _, width := range []int{14, 40, 80} {
		lines := ComputerCard(CardState{Steps: steps}, width)
		viewtest.CheckWidths(t, lines, width)
		// The operation is on the first line inside the box, full or compact.
		if !strings.Contains(viewtest.Visible(lines[1]), "…") {
			t.Errorf("width %d: operation not cut with …: %q", width, viewtest.Visible(lines[1]))
		}
	}
}

func TestComputerCardWidths(t *testing.T) {
	states := []CardState{
		{},
		{Live: true},
		{Steps: replysteps.Steps(t, true), Current: 4, Live: true},
		{Steps: replysteps.Steps(t, false), Current: 2},
		{Steps: replysteps.Steps(t, false), Current: 99},
		{Steps: replysteps.Steps(t, false), Current: -3, Live: true},
		{Steps: []*model.Step{{Category: model.CategoryFetch, Location: "https://例え.jp/ページ/😀", Status: model.StatusCompleted}}, Live: true},
	}
	for i, c := range states {
		for width := 1; width <= 160; width++ {
			lines := ComputerCard(c, width)
			want := 6
			if width < CardCompactWidth {
				want = 3
			}
			if len(lines) != want {
				t.Fatalf("state %d width %d: %d lines, want %d", i, width, len(lines), want)
			}
			viewtest.CheckWidths(t, lines, width)
		}
	}
}

func TestComputerCardGolden(t *testing.T) {
	done := replysteps.Steps(t, false)
	done[4].Status, done[4].DurationMS, done[4].ExitCode = model.StatusCompleted, 3400, new(0)
	for _, tc := range []struct {
		name  string
		c     CardState
		width int
	}{
		{"live-screenshot-60", CardState{Steps: replysteps.Steps(t, true), Current: 4, Live: true}, 60},
		{"done-icon-44", CardState{Steps: done, Current: 4}, 44},
		{"compact-live-20", CardState{Steps: replysteps.Steps(t, false), Current: 4, Live: true}, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := ComputerCard(tc.c, tc.width)
			viewtest.CheckWidths(t, lines, tc.width)
			got := strings.Join(lines, "\n") + "\n"
			golden.RequireEqual(t, got)
		})
	}
}

func ExampleStepRow() {
	s := &model.Step{Category: model.CategoryExecute, Location: "go test ./...", Status: model.StatusFailed,
		ExitCode: new(2), DurationMS: 1200}
	fmt.Printf("%q\n", viewtest.Visible(render.StepRow(s, 46)))
	fmt.Printf("%q\n", viewtest.Visible(render.StepRow(s, 24)))
	// Output:
	// "✗ ❯ Command failed (exit 2) · go test ./… 1.2s"
	// "✗ ❯ Command failed… 1.2s"
}
