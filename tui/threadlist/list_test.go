package threadlist

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// threadDay0 is the day the sample threads mostly fall on.
var threadDay0 = time.Date(2025, 3, 14, 0, 0, 0, 0, time.UTC)

func at(day, h, m, s int) time.Time {
	return threadDay0.AddDate(0, 0, day).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
}

// sampleThreads is a dozen threads, newest activity first, with every mark,
// failures, a missing title and id, and some on other days.
func sampleThreads() []Row {
	return []Row{
		{ID: "0193a1c2-7d4e-7f00-9a1b-2c3d4e5f6a7b", Title: "fix the failing test in fold/reduce_test.go", Source: "/var/log/agents/threads.jsonl",
			Runs: 3, Steps: 42, Failed: 2, First: at(0, 14, 2, 11), Last: at(0, 15, 4, 5), Live: true},
		{ID: "t-review", Title: "review the pull request\nand leave comments on\tanything odd", Source: "/var/log/agents/threads.jsonl",
			Runs: 1, Steps: 7, First: at(0, 14, 50, 0), Last: at(0, 15, 3, 59), Live: true, Marked: true},
		{ID: "t-docs", Title: "write the README section about --layout", Source: "docs.jsonl",
			Runs: 2, Steps: 12, First: at(0, 13, 0, 0), Last: at(0, 14, 58, 30), Current: true},
		{ID: "t-empty", Source: "-", Runs: 1, First: at(0, 14, 40, 0), Last: at(0, 14, 40, 0)},
		{Title: "a thread whose source never named it", Source: "anon.jsonl", Runs: 1, Steps: 3, First: at(0, 12, 1, 0), Last: at(0, 12, 9, 41)},
		{ID: "t-marked", Title: "deploy the staging build", Source: "ops/deploy-staging.jsonl", Runs: 4, Steps: 120, Failed: 11,
			First: at(0, 9, 0, 0), Last: at(0, 11, 30, 0), Marked: true},
		{ID: "t-cjk", Title: "修复登录页面的错误并添加测试 🚀 then deploy", Source: "cjk.jsonl", Runs: 1, Steps: 5, First: at(0, 8, 0, 0), Last: at(0, 8, 1, 23)},
		{ID: "t-overnight", Title: "migrate the database overnight", Source: "db.jsonl", Runs: 6, Steps: 310, Failed: 1,
			First: at(-1, 22, 15, 0), Last: at(0, 2, 45, 0)},
		{ID: "t-yesterday", Title: "summarise yesterday's incidents", Source: "incidents.jsonl", Runs: 1, Steps: 2, First: at(-1, 16, 0, 0), Last: at(-1, 16, 5, 0)},
		{ID: "t-no-times", Title: "a thread without timestamps", Source: "stdin-copy.jsonl", Runs: 1, Steps: 1},
		{ID: "t-old", Title: "last year's thread", Source: "archive/2024/very-long-file-name-for-an-archived-thread.jsonl", Runs: 2, Steps: 9,
			First: time.Date(2024, 12, 30, 10, 0, 0, 0, time.UTC), Last: time.Date(2024, 12, 30, 10, 30, 0, 0, time.UTC)},
		{ID: "t-last", Title: "the oldest thread", Source: "old.jsonl", Runs: 1, Steps: 4, First: at(-3, 7, 0, 0), Last: at(-3, 7, 0, 9)},
	}
}

func manyThreads(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprintf("t%03d", i), Title: fmt.Sprintf("thread number %d", i), Source: "many.jsonl",
			Runs: 1, Steps: i % 7, Failed: i % 5 / 4, First: at(0, 10, 0, 0), Last: at(0, 12, 0, 0).Add(-time.Duration(i) * time.Minute)}
	}
	return rows
}

func TestThreadListGolden(t *testing.T) {
	scrolled := New()
	scrolled.SetRows(manyThreads(104))
	scrolled.Select(57)
	for _, tc := range []struct {
		name          string
		list          *List
		width, height int
	}{
		{"list-80x16", listOf(sampleThreads(), 4), 80, 16},
		{"list-200x16", listOf(sampleThreads(), 4), 200, 16},
		{"list-140x8", listOf(sampleThreads(), 5), 140, 8},
		{"scrolled-80x12", scrolled, 80, 12},
		{"empty-80x5", New(), 80, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := tc.list.View(tc.width, tc.height)
			viewtest.CheckLines(t, lines, tc.width, tc.height)
			golden.RequireEqual(t, strings.Join(lines, "\n")+"\n")
		})
	}
}

func listOf(rows []Row, selected int) *List {
	l := New()
	l.SetRows(rows)
	l.Select(selected)
	return l
}

func TestThreadListSelection(t *testing.T) {
	l := New()
	if l.Selected() != -1 {
		t.Fatalf("empty list selects %d, want -1", l.Selected())
	}
	l.Move(3)
	l.Select(2)
	if l.Selected() != -1 {
		t.Fatalf("empty list selects %d after moves, want -1", l.Selected())
	}
	rows := sampleThreads()
	l.SetRows(rows)
	if l.Selected() != 0 {
		t.Fatalf("first rows select %d, want 0", l.Selected())
	}
	for _, tc := range []struct {
		name string
		do   func()
		want int
	}{
		{"down", func() { l.Move(1) }, 1},
		{"page down", func() { l.Move(5) }, 6},
		{"past the end", func() { l.Move(100) }, 11},
		{"home", func() { l.Move(math.MinInt) }, 0},
		{"end", func() { l.Move(math.MaxInt) }, 11},
		{"up", func() { l.Move(-1) }, 10},
		{"select below", func() { l.Select(-4) }, 0},
		{"select above", func() { l.Select(99) }, 11},
		{"select", func() { l.Select(4) }, 4},
		// Row 4 has no id: it is found again by its source.
		{"reordered", func() { l.SetRows(append([]Row{rows[4]}, rows[:4]...)) }, 0},
		{"same id, other source", func() {
			other := rows[2]
			other.Source = "elsewhere.jsonl"
			l.SetRows(rows)
			l.Select(2)
			l.SetRows([]Row{rows[0], other, rows[1], rows[2]})
		}, 3},
		{"gone, clamped", func() { l.SetRows(rows[:2]) }, 1},
		{"emptied", func() { l.SetRows(nil) }, -1},
		{"refilled", func() { l.SetRows(rows) }, 0},
	} {
		tc.do()
		if got := l.Selected(); got != tc.want {
			t.Errorf("%s: selected %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestThreadListScrollAndRowAt(t *testing.T) {
	l := New()
	l.SetRows(manyThreads(30))
	const width, height = 80, 10 // header, 8 rows, status line
	selectedLine := func(lines []string) int {
		for i, line := range lines {
			if strings.Contains(line, "\x1b[7m") {
				return i
			}
		}
		return -1
	}
	for _, tc := range []struct {
		name      string
		do        func()
		wantLine  int // where the selected row is drawn
		wantFirst int // the row at line 1
	}{
		{"top", func() {}, 1, 0},
		{"bottom of the page", func() { l.Move(7) }, 8, 0},
		{"scrolls by one", func() { l.Move(1) }, 8, 1},
		{"up stays", func() { l.Move(-3) }, 5, 1},
		{"up past the top", func() { l.Move(-5) }, 1, 0},
		{"end", func() { l.Move(math.MaxInt) }, 8, 22},
		{"page up", func() { l.Move(-l.PageSize()) }, 1, 21},
		{"rows shrink under the scroll", func() { l.SetRows(manyThreads(24)) }, 6, 16},
	} {
		tc.do()
		lines := l.View(width, height)
		viewtest.CheckLines(t, lines, width, height)
		if got := selectedLine(lines); got != tc.wantLine {
			t.Errorf("%s: selection drawn at line %d, want %d", tc.name, got, tc.wantLine)
		}
		if i, ok := l.RowAt(tc.wantLine); !ok || i != l.Selected() {
			t.Errorf("%s: RowAt(%d) = %d, %v, want %d", tc.name, tc.wantLine, i, ok, l.Selected())
		}
		if i, ok := l.RowAt(1); !ok || i != tc.wantFirst {
			t.Errorf("%s: RowAt(1) = %d, %v, want %d", tc.name, i, ok, tc.wantFirst)
		}
		for _, line := range []int{-1, 0, height - 1, height} {
			if i, ok := l.RowAt(line); ok {
				t.Errorf("%s: RowAt(%d) = %d, want none (header, status or outside)", tc.name, line, i)
			}
		}
		if status := ansi.Strip(lines[height-1]); !strings.Contains(status, fmt.Sprintf("rows %d–%d of", tc.wantFirst+1, tc.wantFirst+8)) {
			t.Errorf("%s: status line %q", tc.name, status)
		}
		if l.PageSize() != 8 {
			t.Errorf("%s: page size %d, want 8", tc.name, l.PageSize())
		}
	}

	// Rows that fit: no status line, and lines under the rows are no row.
	l.SetRows(manyThreads(3))
	lines := l.View(width, height)
	viewtest.CheckLines(t, lines, width, height)
	if strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "rows ") {
		t.Error("a list that fits says which rows show")
	}
	for line, want := range []bool{false, true, true, true, false, false} {
		if _, ok := l.RowAt(line); ok != want {
			t.Errorf("3 rows: RowAt(%d) is a row: %v, want %v", line, ok, want)
		}
	}

	// Two lines: the header and the selected row, no status line.
	l.SetRows(manyThreads(30))
	l.Select(12)
	lines = l.View(width, 2)
	viewtest.CheckLines(t, lines, width, 2)
	if i, ok := l.RowAt(1); !ok || i != 12 || !strings.Contains(lines[1], "thread number 12") {
		t.Errorf("two lines: RowAt(1) = %d, %v, line %q", i, ok, lines[1])
	}

	// One line: the selected row alone.
	l.SetRows(manyThreads(3))
	l.Select(2)
	lines = l.View(width, 1)
	viewtest.CheckLines(t, lines, width, 1)
	if i, ok := l.RowAt(0); !ok || i != 2 || !strings.Contains(lines[0], "thread number 2") {
		t.Errorf("one line: RowAt(0) = %d, %v, line %q", i, ok, lines[0])
	}
	if l.View(0, 5) != nil || l.View(5, 0) != nil {
		t.Error("nothing should be drawn for an empty area")
	}
	if _, ok := l.RowAt(0); ok {
		t.Error("RowAt after an empty view should find nothing")
	}
}

func TestThreadListHostile(t *testing.T) {
	rows := make([]Row, len(viewtest.HostileTexts))
	for i, title := range viewtest.HostileTexts {
		rows[i] = Row{ID: title, Title: title, Source: "/tmp/" + title, Runs: i, Steps: i, Failed: i % 2,
			First: at(0, 1, i, 0), Last: at(0, 2, i, 0), Live: i%3 == 0, Marked: i%4 == 0, Current: i == 5}
	}
	l := New()
	l.SetRows(rows)
	for _, width := range []int{1, 2, 5, 17, 40, 80, 139, 140, 200} {
		for _, sel := range []int{0, 7, 9, len(rows) - 1} {
			l.Select(sel)
			for _, height := range []int{1, 2, 6, 40} {
				lines := l.View(width, height)
				viewtest.CheckLines(t, lines, width, height)
				// checkViewLines has seen that every escape is SGR and no
				// control is left; what escapes carried is gone too. (The
				// C1 sequences' payloads stay as text: without the
				// introducer, which Plain drops, they are just characters.)
				for _, line := range lines {
					for _, bad := range []string{"\u202e", "\u202c", "ZWNob", "new window title", "sixel", "apc", "evil.example"} {
						if strings.Contains(line, bad) {
							t.Errorf("%dx%d: %q reached the screen: %q", width, height, bad, line)
						}
					}
				}
			}
		}
	}
}

// BenchmarkThreadListView draws a screen of a 10,000-thread list, the
// selection moving each frame.
func BenchmarkThreadListView(b *testing.B) {
	l := New()
	l.SetRows(manyThreads(10000))
	b.ReportAllocs()
	for b.Loop() {
		l.Move(7)
		l.View(200, 60)
	}
}

// BenchmarkThreadListSetRows prepares 10,000 rows, as each refresh of the
// list does.
func BenchmarkThreadListSetRows(b *testing.B) {
	rows := manyThreads(10000)
	l := New()
	b.ReportAllocs()
	for b.Loop() {
		l.SetRows(rows)
	}
}
