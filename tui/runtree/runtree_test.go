package runtree

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// runsOf makes runs from "id" or "id<parent" specs, in that order, each
// starting at a later seq.
func runsOf(specs ...string) []*model.Run {
	runs := make([]*model.Run, len(specs))
	for i, s := range specs {
		id, parent, _ := strings.Cut(s, "<")
		runs[i] = &model.Run{RunID: id, ParentRunID: parent, Status: model.StatusCompleted, FirstSeq: uint64(10 * (i + 1))}
	}
	return runs
}

func TestRunRowsTree(t *testing.T) {
	chain := []string{"r0"}
	for i := 1; i < 16; i++ {
		chain = append(chain, fmt.Sprintf("r%d<r%d", i, i-1))
	}
	type want struct {
		depth          int
		branch, orphan bool
		parent         int
		note           string
	}
	root := want{parent: -1}
	for _, tc := range []struct {
		name  string
		specs []string
		want  []want
	}{
		{"roots", []string{"a", "b"}, []want{root, root}},
		{"continuation", []string{"r1", "r2<r1"}, []want{root, {parent: 0, note: "continues r1"}}},
		{"branch", []string{"r1", "r2<r1", "r3<r1"}, []want{root, {parent: 0, note: "continues r1"},
			{depth: 1, branch: true, parent: 0, note: "branch of r1"}}},
		{"orphan", []string{"r1", "r2<r0"}, []want{root, {orphan: true, parent: -1, note: "parent r0 not in this thread"}}},
		{"parent named after itself", []string{"r1<r1"}, []want{{orphan: true, parent: -1, note: "names itself as parent"}}},
		{"parent starts later", []string{"r1<r2", "r2"}, []want{{orphan: true, parent: -1, note: "parent r2 starts later"}, root}},
		// The parent is the latest run of that id to start before.
		{"duplicate run ids", []string{"r1", "r2<r1", "r1", "r3<r1"}, []want{root, {parent: 0, note: "continues r1"}, root,
			{parent: 2, note: "continues r1"}}},
		{"duplicate, branch from the later", []string{"r1", "r1", "x<r1", "y<r1"}, []want{root, root, {parent: 1, note: "continues r1"},
			{depth: 1, branch: true, parent: 1, note: "branch of r1"}}},
		{"16-run chain does not indent", chain, func() []want {
			w := []want{root}
			for i := 1; i < 16; i++ {
				w = append(w, want{parent: i - 1, note: fmt.Sprintf("continues r%d", i-1)})
			}
			return w
		}()},
		{"branch of a branch", []string{"r1", "r2<r1", "r3<r1", "r4<r3", "r5<r3", "r6<r2"}, []want{root, {parent: 0, note: "continues r1"},
			{depth: 1, branch: true, parent: 0, note: "branch of r1"}, {depth: 1, parent: 2, note: "continues r3"},
			{depth: 2, branch: true, parent: 2, note: "branch of r3"}, {depth: 1, branch: true, parent: 1, note: "branch of r2"}}},
		{"retries from one run", []string{"r1", "r2<r1", "r3<r1", "r4<r1"}, []want{root, {parent: 0, note: "continues r1"},
			{depth: 1, branch: true, parent: 0, note: "branch of r1"}, {depth: 1, branch: true, parent: 0, note: "branch of r1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := runsOf(tc.specs...)
			rows := Rows(runs, nil)
			if len(rows) != len(tc.want) {
				t.Fatalf("%d rows, want %d", len(rows), len(tc.want))
			}
			for i, w := range tc.want {
				r := rows[i]
				got := want{r.Depth, r.Branch, r.Orphan, r.Parent, Note(runs, i)}
				if got != w {
					t.Errorf("row %d (%s): %+v, want %+v", i, tc.specs[i], got, w)
				}
				link, p := LinkOf(runs, i)
				if p != w.parent || (link == Branches) != w.branch || (link == Orphan) != w.orphan {
					t.Errorf("RunLinkOf(%d) = %s, %d; want parent %d, branch %v, orphan %v", i, link, p, w.parent, w.branch, w.orphan)
				}
			}
		})
	}
}

func TestRunLinkOfEdges(t *testing.T) {
	runs := runsOf("r1", "r2<r1", "r3<r1")
	for _, i := range []int{-1, 3} {
		if link, p := LinkOf(runs, i); link != Root || p != -1 {
			t.Errorf("RunLinkOf(%d) = %s, %d, want a root", i, link, p)
		}
	}
	// A nil run between a run and its child does not make the child a branch.
	withNil := []*model.Run{runs[0], nil, {RunID: "r2", ParentRunID: "r1"}}
	if link, p := LinkOf(withNil, 2); link != Continues || p != 0 {
		t.Errorf("across a nil run: %s, %d, want continues 0", link, p)
	}
	if rows := Rows(withNil, nil); len(rows) != 2 || rows[1].Branch || rows[1].Parent != 0 {
		t.Errorf("RunRows leaves nil runs out: %+v", rows)
	}
	for k, want := range map[Link]string{Root: "root", Continues: "continues", Branches: "branch", Orphan: "orphan", 9: "unknown"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
	hostile := runsOf("r1", "r2<\x1b]52;c;eA==\x07r\n1")
	if note := Note(hostile, 1); note != "parent r 1 not in this thread" {
		t.Errorf("hostile parent: %q", note)
	}
}

func TestRunRowsSteps(t *testing.T) {
	runs := runsOf("r1", "r2<r1", "r1")
	step := func(run string, seq uint64, st model.Status) *model.Step {
		return &model.Step{RunID: run, FirstSeq: seq, Status: st}
	}
	steps := []*model.Step{
		step("r1", 11, model.StatusCompleted), step("r1", 12, model.StatusFailed),
		step("r2", 21, model.StatusCompleted), nil,
		step("r1", 31, model.StatusFailed), step("r1", 32, model.StatusCompleted), step("r1", 33, model.StatusCompleted),
		step("", 40, model.StatusFailed), step("zz", 41, model.StatusCompleted),
		step("r1", 5, model.StatusCompleted), // before any r1 started: the first r1
	}
	rows := Rows(runs, steps)
	for i, w := range []struct{ steps, failed int }{{3, 1}, {1, 0}, {3, 1}} {
		if rows[i].Steps != w.steps || rows[i].Failed != w.failed {
			t.Errorf("row %d: %d steps %d failed, want %d and %d", i, rows[i].Steps, rows[i].Failed, w.steps, w.failed)
		}
	}
}

// treeRuns is a thread with branches, an orphan, failed and running runs,
// UUID ids and outcomes.
func treeRuns() ([]*model.Run, []*model.Step) {
	t0 := time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)
	runs := runsOf("r1", "r2<r1", "r3<r1", "r4<r3", "r5<r3", "r6<r2", "0193a1c2-7d4e-7f00-9a1b-2c3d4e5f6a7b<r6",
		"r8<r0", "r9<r8", "r10<r9")
	for i, r := range runs {
		r.Started = t0.Add(time.Duration(i) * time.Minute)
		r.Ended = r.Started.Add(time.Duration(1+7*i) * time.Second)
	}
	runs[3].Status, runs[3].Error = model.StatusFailed, "rate limited: \x1b[31mtoo many\x1b[0m requests\n(retry after 30 s)"
	runs[4].Outcome = "interrupt"
	runs[6].Status, runs[6].Outcome = model.StatusFailed, "max_tokens"
	runs[8].Status = model.StatusCancelled
	runs[9].Status, runs[9].Ended = model.StatusRunning, time.Time{}
	var steps []*model.Step
	for i, r := range runs {
		for k := range (i*5)%13 + 1 {
			st := model.StatusCompleted
			if (i+k)%9 == 0 {
				st = model.StatusFailed
			}
			steps = append(steps, &model.Step{RunID: r.RunID, FirstSeq: r.FirstSeq + uint64(k), Status: st})
		}
	}
	return runs, steps
}

func TestRunTreeGolden(t *testing.T) {
	runs, steps := treeRuns()
	rows := Rows(runs, steps)
	for _, tc := range []struct {
		name                    string
		selected, width, height int
	}{
		{"tree-40x12", 3, 40, 12},
		{"tree-90x12", 6, 90, 12},
		{"tree-scrolled-40x6", 8, 40, 6},
		{"tree-narrow-20x12", 4, 20, 12},
		{"tree-empty-40x3", -1, 40, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rows
			if strings.Contains(tc.name, "empty") {
				r = nil
			}
			lines := Lines(r, tc.selected, tc.width, tc.height)
			viewtest.CheckLines(t, lines, tc.width, tc.height)
			golden.RequireEqual(t, strings.Join(lines, "\n")+"\n")
		})
	}
}

func TestRunTreeWidthsAndRowAt(t *testing.T) {
	runs, steps := treeRuns()
	deep := runsOf("d0")
	for i := 1; i < 30; i++ { // every run a branch of the one two before: 15 levels
		deep = append(deep, &model.Run{RunID: fmt.Sprintf("d%d", i), ParentRunID: deep[max(0, i-2)].RunID})
	}
	for _, h := range viewtest.HostileTexts {
		runs = append(runs, &model.Run{RunID: h, ParentRunID: h, Status: model.StatusFailed, Error: h, Outcome: h})
	}
	for name, rows := range map[string][]Row{"tree": Rows(runs, steps), "deep": Rows(deep, nil)} {
		for _, width := range []int{1, 2, 5, 12, 20, 33, 40, 60, 90, 200} {
			for _, height := range []int{1, 2, 5, 12, 60} {
				for _, sel := range []int{-1, 0, 5, len(rows) - 1, len(rows) + 3} {
					lines := Lines(rows, sel, width, height)
					viewtest.CheckLines(t, lines, width, height)
					for _, line := range lines {
						if strings.Contains(line, "eA==") || strings.Contains(line, "evil.example") {
							t.Fatalf("%s %dx%d: escape payload reached the screen: %q", name, width, height, line)
						}
					}
					// Every row RowAt finds is drawn there (its id
					// shows), and the selected row is the reverse one.
					for y := range height {
						i, ok := RowAt(rows, sel, height, y)
						if want := y >= 1 && y-1 < min(len(rows), height-1); ok != want {
							t.Errorf("%s %dx%d sel %d: line %d holds a row: %v, want %v", name, width, height, sel, y, ok, want)
						}
						if !ok {
							continue
						}
						bar := strings.HasPrefix(lines[y], "\x1b[7m")
						if bar != (i == sel) {
							t.Errorf("%s %dx%d sel %d: line %d is row %d, reverse %v", name, width, height, sel, y, i, bar)
						}
						if id := rows[i].Run.RunID; width >= 40 && len(id) <= 4 && !strings.Contains(ansi.Strip(lines[y]), id) {
							t.Errorf("%s %dx%d: line %d should show run %s: %q", name, width, height, y, id, ansi.Strip(lines[y]))
						}
					}
				}
			}
		}
	}
	if Lines(nil, 0, 0, 4) != nil || Lines(nil, 0, 4, 0) != nil {
		t.Error("nothing should be drawn for an empty area")
	}
	for _, y := range []int{-1, 0, 5, 9} {
		if _, ok := RowAt(Rows(runsOf("a", "b", "c"), nil), 0, 5, y); ok {
			t.Errorf("RunTreeRowAt line %d of 3 rows in 5 lines found a row", y)
		}
	}
}

// BenchmarkRunTree builds and draws the tree of 1,000 runs with 10,000 steps.
func BenchmarkRunTree(b *testing.B) {
	runs := runsOf("r0")
	for i := 1; i < 1000; i++ {
		parent := runs[i-1].RunID
		if i%10 == 0 {
			parent = runs[i-5].RunID
		}
		runs = append(runs, &model.Run{RunID: fmt.Sprintf("r%d", i), ParentRunID: parent, FirstSeq: uint64(10 * i)})
	}
	steps := make([]*model.Step, 10000)
	for i := range steps {
		steps[i] = &model.Step{RunID: runs[i/10].RunID, FirstSeq: uint64(i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		rows := Rows(runs, steps)
		Lines(rows, 500, 90, 40)
	}
}

// A run with a number (an ACP run, whose id is a JSON-RPC id) is drawn by
// its number, its id nowhere.
func TestRunTreeNamesNumberedRuns(t *testing.T) {
	runs := []*model.Run{
		{RunID: "17", Number: 1, Status: model.StatusCompleted, FirstSeq: 10},
		{RunID: "42", Number: 2, Status: model.StatusRunning, FirstSeq: 20},
	}
	screen := ansi.Strip(strings.Join(Lines(Rows(runs, nil), 1, 40, 4), "\n"))
	for _, want := range []string{"✓ 1 ", "● 2 "} {
		if !strings.Contains(screen, want) {
			t.Errorf("the tree lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "17") || strings.Contains(screen, "42") {
		t.Errorf("the tree shows a run id:\n%s", screen)
	}
	if n := NameOf(runs, &model.Item{ID: "42", Kind: model.ItemRun, FirstSeq: 20}); n != "2" {
		t.Errorf("NameOf the second run's item: %q", n)
	}
}
