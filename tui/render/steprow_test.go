package render

import (
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/replysteps"
	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
)

func TestStepRowStatusGlyphs(t *testing.T) {
	for _, tc := range []struct {
		status model.Status
		want   string // the glyph with its colour
	}{
		{model.StatusPending, "\x1b[2m○" + styles.Reset},
		{model.StatusRunning, "\x1b[33m◐" + styles.Reset},
		{model.StatusCompleted, "\x1b[32m✓" + styles.Reset},
		{model.StatusFailed, "\x1b[31m✗" + styles.Reset},
		{model.StatusCancelled, "\x1b[2m⊘" + styles.Reset},
		{"", "\x1b[2m○" + styles.Reset},
		{model.StatusOpen, "\x1b[2m○" + styles.Reset},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			s := &model.Step{Category: model.CategoryRead, Location: "a.go", Status: tc.status}
			row := StepRow(s, 40)
			viewtest.CheckWidths(t, []string{row}, 40)
			if !strings.HasPrefix(row, tc.want) {
				t.Errorf("row %q does not start with %q", row, tc.want)
			}
			glyph := viewtest.Visible(tc.want)
			if v := viewtest.Visible(row); !strings.HasPrefix(v, glyph+" ▤ Read") || !strings.Contains(v, " · a.go") {
				t.Errorf("row %q: want the glyph, the icon and the label", v)
			}
		})
	}
}

func TestFormatStepDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, ""},
		{-time.Second, ""},
		{time.Millisecond, "1ms"},
		{340 * time.Millisecond, "340ms"},
		{999 * time.Millisecond, "999ms"},
		{time.Second, "1s"},
		{1200 * time.Millisecond, "1.2s"},
		{1249 * time.Millisecond, "1.2s"},
		{59940 * time.Millisecond, "59.9s"},
		{59960 * time.Millisecond, "1m0s"},
		{125 * time.Second, "2m5s"},
		{time.Hour + 2*time.Minute + 10*time.Second, "1h2m"},
	} {
		if got := FormatStepDuration(tc.d); got != tc.want {
			t.Errorf("FormatStepDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestStepRowExitCodeAndDuration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		exit     *int
		ms       int64
		wantTail string // end of the visible row
		notWant  string
	}{
		{"no result yet", nil, 0, "ls -la", "exit"},
		{"exit 0 is not shown", new(0), 340, "ls -la" + strings.Repeat(" ", 21) + "340ms", "exit"},
		{"exit 2 and seconds", new(2), 1200, "exit 2 · 1.2s", ""},
		{"exit only", new(127), 0, "exit 127", "ms"},
		{"minutes", nil, 125000, "2m5s", "exit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &model.Step{Category: model.CategoryExecute, Location: "ls -la", Status: model.StatusCompleted, ExitCode: tc.exit, DurationMS: tc.ms}
			row := StepRow(s, 50)
			viewtest.CheckWidths(t, []string{row}, 50)
			v := strings.TrimRight(viewtest.Visible(row), " ")
			if !strings.HasSuffix(v, tc.wantTail) {
				t.Errorf("row %q does not end with %q", v, tc.wantTail)
			}
			if tc.notWant != "" && strings.Contains(v, tc.notWant) {
				t.Errorf("row %q shows %q", v, tc.notWant)
			}
			if tc.exit != nil && *tc.exit != 0 && !strings.Contains(row, "\x1b[31mexit ") {
				t.Errorf("exit code is not red: %q", row)
			}
		})
	}
}

func TestStepRowStripsEscapes(t *testing.T) {
	s := &model.Step{
		Category: model.CategoryExecute,
		Status:   model.StatusCompleted,
		Location: "ls\x1b]52;c;aGVsbG8=\x07 -la\x1b[2J\x1b]0;title\x07\n\trm\x1b[31m x\u009b1A\x07",
	}
	for _, width := range []int{8, 30, 80} {
		row := StepRow(s, width)
		viewtest.CheckWidths(t, []string{row}, width)
		for _, bad := range []string{"\x1b]", "\x1b[2J", "52;", "title", "\x07", "\x1b[31m x", "\n", "\t", "\u009b", "1A"} {
			if strings.Contains(row, bad) {
				t.Errorf("width %d: row carries %q: %q", width, bad, row)
			}
		}
	}
	if got, want := strings.TrimRight(viewtest.Visible(StepRow(s, 60)), " "), "✓ ❯ Ran command · ls -la  rm x"; got != want {
		t.Errorf("visible row = %q, want %q", got, want)
	}
}

func TestStepRowCutsLongLabel(t *testing.T) {
	s := &model.Step{
		Category:   model.CategoryRead,
		Location:   "src/" + strings.Repeat("very/deep/", 20) + "File.kt",
		Status:     model.StatusCompleted,
		DurationMS: 1200,
	}
	row := StepRow(s, 40)
	viewtest.CheckWidths(t, []string{row}, 40)
	v := viewtest.Visible(row)
	if !strings.Contains(v, "…") || !strings.HasSuffix(v, "… 1.2s") {
		t.Errorf("row %q: want the label cut with … and the duration at the right", v)
	}
	// Too narrow for the label to keep ten cells: the duration goes first.
	row = StepRow(s, 15)
	viewtest.CheckWidths(t, []string{row}, 15)
	if v := viewtest.Visible(row); strings.Contains(v, "1.2s") || !strings.HasSuffix(v, "…") {
		t.Errorf("narrow row %q: want the label cut and no duration", v)
	}
}

func TestStepRowWidths(t *testing.T) {
	steps := append(replysteps.Steps(t, false),
		&model.Step{Category: model.CategoryFetch, Location: "https://例え.jp/ページ/😀", Status: model.StatusCancelled, DurationMS: 61000},
		&model.Step{Category: "made_up", ToolName: "frob\x1b[2J", Status: model.StatusPending},
		&model.Step{Category: model.CategoryThink, Status: model.StatusCompleted, DurationMS: 5},
	)
	for _, s := range steps {
		for width := 1; width <= 120; width++ {
			viewtest.CheckWidths(t, []string{StepRow(s, width)}, width)
		}
	}
	if got := StepRow(steps[0], 0); got != "" {
		t.Errorf("width 0: %q", got)
	}
	if got := StepRow(nil, 5); got != "     " {
		t.Errorf("nil step: %q", got)
	}
}
