package transcript

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/replysteps"
	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// demoTranscript folds the committed demo log as agentwatch does.
func demoTranscript(t testing.TB) ([]*model.Item, []*model.Step) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := sources.NewReader(f)
	fo := fold.New(fold.Options{})
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fo.Apply(rec); err != nil {
			t.Fatalf("fold: %v", err)
		}
	}
	return fo.Items(), fo.Steps()
}

// checkView fails unless view is exactly height lines of exactly width cells.
func checkView(t testing.TB, view []string, width, height int) {
	t.Helper()
	if len(view) != height {
		t.Fatalf("View has %d lines, want %d", len(view), height)
	}
	for i, l := range view {
		if n := ansi.StringWidth(l); n != width {
			t.Fatalf("line %d is %d cells, want %d: %q", i, n, width, l)
		}
	}
}

// allRows is every row of the transcript at width, top to bottom.
func allRows(tr *Transcript, width int) []string {
	tr.SetSize(width, 100) // tall: full cards
	var out []string
	for i := range tr.count() {
		out = append(out, tr.lines(i)...)
	}
	return out
}

// extraItems are kinds the demo does not have, so the golden shows them too.
func extraItems(next uint64) []*model.Item {
	return []*model.Item{
		{Seq: next, Kind: model.ItemError, Version: 1, Status: model.StatusFailed, Name: "E_TIMEOUT", Text: "the model did not answer within 60 seconds; the run was stopped and can be resumed"},
		{Seq: next + 1, Kind: model.ItemDiagnostic, Version: 1, Text: "event 812: TEXT_MESSAGE_CONTENT for unknown message m9"},
		{Seq: next + 2, Kind: model.ItemCustom, Version: 1, Name: "checkpoint", Data: []byte(`{"label": "after tests", "n": 3}`)},
		{Seq: next + 3, Kind: model.ItemPhase, Version: 2, Status: model.StatusCompleted, Name: "plan"},
		{Seq: next + 4, Kind: model.ItemMessage, Version: 1, Status: model.StatusOpen, Role: "assistant"},
		// The screen's words for items it shed; a gap row draws them dim.
		{Seq: next + 5, Kind: model.ItemGap, Version: 1, Status: model.StatusCompleted, Step: -1, Text: "▲ 12,345 earlier items not kept · scroll up or Enter to read them back"},
	}
}

func TestTranscriptGolden(t *testing.T) {
	items, steps := demoTranscript(t)
	kinds := map[model.ItemKind]bool{}
	for _, it := range items {
		kinds[it.Kind] = true
	}
	for _, k := range []model.ItemKind{model.ItemMessage, model.ItemReasoning, model.ItemToolCall, model.ItemRun} {
		if !kinds[k] {
			t.Fatalf("demo has no %s item", k)
		}
	}
	items = append(items[:len(items):len(items)], extraItems(items[len(items)-1].Seq+1)...)
	for _, width := range []int{60, 100} {
		name := fmt.Sprintf("demo-%d", width)
		t.Run(name, func(t *testing.T) {
			tr := New()
			tr.SetItems(items, steps)
			// One reasoning item expanded, the others collapsed.
			for _, it := range items {
				if it.Kind == model.ItemReasoning {
					tr.ToggleExpanded(it.Seq)
					break
				}
			}
			rows := allRows(tr, width)
			checkView(t, rows, width, len(rows))
			got := strings.Join(rows, "\n") + "\n"
			golden.RequireEqual(t, got)
		})
	}
}

// plainRows is rows with their escape sequences removed and trailing spaces trimmed.
func plainRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(ansi.Strip(r), " ")
	}
	return out
}

func TestTranscriptKinds(t *testing.T) {
	code := 2
	steps := []*model.Step{{Index: 0, ToolName: "bash", Category: model.CategoryExecute, Location: "go test ./...", Status: model.StatusFailed, ExitCode: &code, DurationMS: 1200}}
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemRun, Version: 1, ID: "r2", Name: "r1"},
		{Seq: 2, Kind: model.ItemMessage, Version: 1, Role: "user", Text: "fix the failing test"},
		{Seq: 3, Kind: model.ItemReasoning, Version: 1, Text: "The test fails because\nthe fold drops the last delta."},
		{Seq: 4, Kind: model.ItemToolCall, Version: 1, Step: 0},
		{Seq: 5, Kind: model.ItemError, Version: 1, Text: "boom"},
		{Seq: 6, Kind: model.ItemDiagnostic, Version: 1, Text: "bad event"},
		{Seq: 7, Kind: model.ItemSubagent, Version: 1, Name: "reviewer", Text: "checks the diff"},
	}
	tr := New()
	tr.SetItems(items, steps)
	got := plainRows(allRows(tr, 60))
	want := []string{
		"── run r2 (continues r1) " + strings.Repeat("─", 35),
		"",
		"you    fix the failing test",
		"       ▸ thinking: The test fails because the fold drops th…",
		"       ✗ " + render.CategoryIcon(model.CategoryExecute) + " Command failed (exit 2) · go test ./...      1.2s",
		"       ╭─ computer ────────────────────────────────────────╮",
		"       │               Command failed (exit 2) · go test … │",
		"       │      " + render.CategoryIcon(model.CategoryExecute) + "        1 step                              │",
		"       │     exec      ✗ failed · exit 2 · 1.2s            │",
		"       │                                                   │",
		"       ╰───────────────────────────────────────────────────╯",
		"✗ error: boom",
		"⚠ bad event",
		"       · subagent reviewer: checks the diff",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rows := allRows(tr, 60)
	for i, sgr := range map[int]string{0: styles.ParamDim, 3: styles.ParamDim, 11: styles.ParamRed, 12: styles.ParamRed} {
		if !strings.Contains(rows[i], "\x1b["+sgr+"m") {
			t.Errorf("row %d lacks SGR %s: %q", i, sgr, rows[i])
		}
	}
	tr.ToggleExpanded(3)
	got = plainRows(allRows(tr, 60))
	if got[3] != "       ▾ thinking" || got[4] != "         The test fails because" || got[5] != "         the fold drops the last delta." {
		t.Errorf("expanded reasoning:\n%s", strings.Join(got[3:6], "\n"))
	}
	tr.ToggleExpanded(3)
	if got = plainRows(allRows(tr, 60)); !strings.HasPrefix(got[3], "       ▸ thinking") {
		t.Errorf("collapsed again: %q", got[3])
	}
}

func TestTranscriptMarkdown(t *testing.T) {
	items := []*model.Item{{Seq: 1, Kind: model.ItemMessage, Version: 1, Role: "assistant",
		Text: "This is **important** now.\n\n```go\nfunc main() { println(\"hi\") }\n```\n"}}
	tr := New()
	tr.SetItems(items, nil)
	rows := allRows(tr, 60)
	joined := strings.Join(rows, "\n")
	plain := strings.Join(plainRows(rows), "\n")
	if strings.Contains(plain, "**") || !strings.Contains(plain, "important") {
		t.Errorf("bold markers not rendered:\n%s", plain)
	}
	if !viewtest.SGR.MatchString(joined) {
		t.Fatalf("no SGR in %q", joined)
	}
	bold := false
	for _, m := range viewtest.SGR.FindAllStringSubmatchIndex(joined, -1) {
		params := strings.Split(joined[m[2]:m[3]], ";")
		if params[len(params)-1] == "1" && strings.HasPrefix(joined[m[1]:], "important") {
			bold = true
		}
	}
	if !bold {
		t.Errorf("\"important\" is not bold: %q", joined)
	}
	if !strings.Contains(plain, `func main() { println("hi") }`) || strings.Contains(plain, "```") {
		t.Errorf("fenced block not shown as code:\n%s", plain)
	}
}

func TestTranscriptStripsEscapes(t *testing.T) {
	hostile := "hi \x1b]52;c;ZXZpbA==\x07there \x1b[2J\x1b]0;title\x07\x1b[31mred\x1b[0m \x1bP1$q\x1b\\ok \x9b2J [x](http://e.vil)"
	steps := []*model.Step{{Index: 0, ToolName: "t\x1b]0;x\x07", Category: model.CategoryOther, Location: hostile}}
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemMessage, Version: 1, Role: "user", Text: hostile},
		{Seq: 2, Kind: model.ItemMessage, Version: 1, Role: "assistant\x1b]0;x\x07", Name: hostile, Text: hostile},
		{Seq: 3, Kind: model.ItemReasoning, Version: 1, Text: hostile},
		{Seq: 4, Kind: model.ItemToolCall, Version: 1, Step: 0},
		{Seq: 5, Kind: model.ItemError, Version: 1, Name: hostile, Text: hostile},
		{Seq: 6, Kind: model.ItemDiagnostic, Version: 1, Text: hostile},
		{Seq: 7, Kind: model.ItemRun, Version: 1, ID: hostile, Name: hostile},
		{Seq: 8, Kind: model.ItemCustom, Version: 1, Name: hostile, Data: []byte(`"\u001b]52;c;eA==\u0007"`)},
	}
	tr := New()
	tr.SetItems(items, steps)
	tr.ToggleExpanded(3)
	for _, w := range []int{20, 60, 100} {
		for i, row := range allRows(tr, w) {
			// Only SGR sequences may remain.
			rest := viewtest.SGR.ReplaceAllString(row, "")
			for _, bad := range []string{"\x1b", "\x07", "\x9b", "\u009b"} {
				if strings.Contains(rest, bad) {
					t.Errorf("width %d row %d keeps %q: %q", w, i, bad, row)
				}
			}
			if strings.Contains(row, "\x1b[31mred") {
				t.Errorf("width %d row %d keeps the agent's colour: %q", w, i, row)
			}
		}
	}
}

// countingTranscript counts calls of the markdown renderer.
func countingTranscript() (*Transcript, *int) {
	tr := New()
	n := new(int)
	inner := tr.markdown
	tr.markdown = func(src string, width int) string {
		*n++
		return inner(src, width)
	}
	return tr, n
}

func TestTranscriptCache(t *testing.T) {
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemMessage, Version: 1, Status: model.StatusCompleted, Role: "user", Text: "hello **there**"},
		{Seq: 2, Kind: model.ItemMessage, Version: 3, Status: model.StatusOpen, Role: "assistant", Text: "working"},
	}
	tr, calls := countingTranscript()
	tr.SetItems(items, nil)
	tr.SetSize(60, 10)
	first := tr.View()
	tr.View()
	if *calls != 2 {
		t.Fatalf("two Views of two items rendered markdown %d times, want 2", *calls)
	}
	tr.SetItems(items, nil)
	tr.View()
	if *calls != 2 {
		t.Fatalf("SetItems with unchanged items re-rendered (%d calls)", *calls)
	}
	items[1].Text += " on it"
	items[1].Version++
	tr.SetItems(items, nil)
	second := tr.View()
	if *calls != 3 {
		t.Fatalf("a version bump of one item made %d renders, want 1", *calls-2)
	}
	if first[1] != second[1] {
		t.Errorf("the unchanged item changed: %q vs %q", first[1], second[1])
	}
	tr.SetSize(80, 10)
	tr.View()
	if *calls != 5 {
		t.Errorf("a new width rendered %d items, want 2", *calls-3)
	}
	// A tool call re-renders when its step changes, though the item does not.
	steps := []*model.Step{{Index: 0, ToolName: "bash", Category: model.CategoryExecute, Status: model.StatusRunning, LastSeq: 5}}
	tr.SetItems([]*model.Item{{Seq: 9, Kind: model.ItemToolCall, Version: 1, Step: 0}}, steps)
	if v := plainRows(tr.View()); !strings.Contains(v[0], "◐") {
		t.Fatalf("running step row: %q", v[0])
	}
	steps[0].Status, steps[0].LastSeq = model.StatusCompleted, 6
	if v := plainRows(tr.View()); !strings.Contains(v[0], "✓") {
		t.Errorf("finished step row not redrawn: %q", v[0])
	}
}

// manyItems is n items of mixed kinds, like a long run.
func manyItems(n int) ([]*model.Item, []*model.Step) {
	var items []*model.Item
	var steps []*model.Step
	for i := range n {
		it := &model.Item{Seq: uint64(i + 1), Version: 1, Status: model.StatusCompleted, Step: -1}
		switch i % 5 {
		case 0:
			it.Kind, it.Role, it.Text = model.ItemMessage, "user", fmt.Sprintf("please look at **file %d** and fix it", i)
		case 1:
			it.Kind, it.Role = model.ItemMessage, "assistant"
			it.Text = fmt.Sprintf("Item %d. I will read the file, then run the tests, and explain what I find in `fold.go`.\n\n- first\n- second", i)
		case 2:
			it.Kind, it.Text = model.ItemReasoning, "Thinking about what to do next with the failing test"
		default:
			it.Kind, it.Step = model.ItemToolCall, len(steps)
			steps = append(steps, &model.Step{Index: len(steps), ToolName: "read", Category: model.CategoryRead,
				Location: fmt.Sprintf("src/file%d.go", i), Status: model.StatusCompleted, DurationMS: int64(i % 900)})
		}
		items = append(items, it)
	}
	return items, steps
}

func TestTranscriptVirtual(t *testing.T) {
	items, steps := manyItems(10000)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(100, 40)
	checkView(t, tr.View(), 100, 40)
	if tr.renders > 40 {
		t.Errorf("first View rendered %d of 10000 items, want at most a screen's worth", tr.renders)
	}
	tr.renders = 0
	tr.View()
	if tr.renders != 0 {
		t.Errorf("second View rendered %d items, want 0", tr.renders)
	}
	// A long jump up renders only what ends up visible.
	tr.ScrollBy(-1_000_000)
	v := tr.View()
	checkView(t, v, 100, 40)
	if tr.renders > 80 {
		t.Errorf("jumping to the top rendered %d items", tr.renders)
	}
	if seq, ok := tr.ItemAt(0); !ok || seq != 1 {
		t.Errorf("top row after jumping up is item %d (%v), want 1", seq, ok)
	}
	if tr.Following() {
		t.Error("following at the top of 10000 items")
	}
	tr.ScrollBy(1_000_000)
	if !tr.Following() {
		t.Error("not following after jumping to the bottom")
	}
	checkView(t, tr.View(), 100, 40)
	if seq, ok := tr.ItemAt(39); !ok || seq != 10000 {
		t.Errorf("bottom row is item %d (%v), want 10000", seq, ok)
	}
}

func TestTranscriptFollow(t *testing.T) {
	items, steps := manyItems(50)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(60, 12)
	if !tr.Following() {
		t.Fatal("a new transcript does not follow")
	}
	tr.View()
	// New items while following: the newest is at the bottom.
	more, moreSteps := manyItems(60)
	tr.SetItems(more, moreSteps)
	tr.View()
	if seq, _ := tr.ItemAt(11); seq != 60 {
		t.Errorf("bottom row is item %d after appending, want 60", seq)
	}
	// Scrolling up stops following, and the view stays put while items arrive.
	tr.ScrollBy(-5)
	if tr.Following() {
		t.Fatal("still following after ScrollBy(-5)")
	}
	before := tr.View()
	all, allSteps := manyItems(80)
	tr.SetItems(all, allSteps)
	after := tr.View()
	if strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Errorf("view moved when items were appended:\n%s\n---\n%s",
			strings.Join(plainRows(before), "\n"), strings.Join(plainRows(after), "\n"))
	}
	// Scrolled by one row exactly.
	tr.ScrollBy(1)
	if got := tr.View(); got[0] != after[1] {
		t.Errorf("ScrollBy(1) moved by more than a row: %q, want %q", got[0], after[1])
	}
	// Back at the bottom, following resumes.
	tr.ScrollBy(1_000)
	if !tr.Following() {
		t.Fatal("not following after scrolling back to the bottom")
	}
	tr.View()
	if seq, _ := tr.ItemAt(11); seq != 80 {
		t.Errorf("bottom row is item %d, want 80", seq)
	}
	// Up 5 and down 5 returns exactly to the bottom.
	tr.ScrollBy(-5)
	tr.ScrollBy(5)
	if !tr.Following() {
		t.Error("ScrollBy(-5) then ScrollBy(5) does not resume following")
	}
	// A short transcript cannot scroll away from following.
	short := New()
	short.SetItems(items[:2], steps)
	short.SetSize(60, 40)
	short.ScrollBy(-5)
	if !short.Following() {
		t.Error("a transcript shorter than the view stopped following")
	}
	checkView(t, short.View(), 60, 40)
	if _, ok := short.ItemAt(39); ok {
		t.Error("a blank row below the items reports an item")
	}
}

func TestTranscriptViewSizes(t *testing.T) {
	items, steps := demoTranscript(t)
	tr := New()
	tr.SetItems(items, steps)
	for _, size := range [][2]int{{0, 0}, {1, 1}, {5, 3}, {20, 10}, {31, 24}, {32, 24}, {60, 20}, {100, 40}, {300, 100}} {
		tr.SetSize(size[0], size[1])
		checkView(t, tr.View(), size[0], size[1])
		tr.ScrollBy(-7)
		checkView(t, tr.View(), size[0], size[1])
		tr.ScrollBy(1000)
	}
}

// BenchmarkTranscriptView draws a 100×40 view of 10,000 items after
// warm-up, following the bottom: what a frame costs while a run streams.
func BenchmarkTranscriptView(b *testing.B) {
	items, steps := manyItems(10000)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(100, 40)
	tr.View()
	b.ReportAllocs()
	for b.Loop() {
		tr.SetItems(items, steps)
		tr.View()
	}
}

// BenchmarkTranscriptViewScrolled is the same scrolled to the middle.
func BenchmarkTranscriptViewScrolled(b *testing.B) {
	items, steps := manyItems(10000)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(100, 40)
	tr.ScrollBy(-100_000)
	tr.View()
	b.ReportAllocs()
	for b.Loop() {
		tr.View()
	}
}

// cardItems is two replies: the first with an edit step (categorized), the
// second, after another user message, with one step of category lastCat.
func cardItems(lastCat model.Category, lastStatus, runStatus model.Status) ([]*model.Item, []*model.Step) {
	steps := []*model.Step{
		{Index: 0, ToolName: "edit", Category: model.CategoryEdit, Location: "main.go", Status: model.StatusCompleted, RunID: "r1", LastSeq: 5},
		{Index: 1, ToolName: "read", Category: model.CategoryRead, Location: "go.mod", Status: model.StatusCompleted, RunID: "r1", LastSeq: 6},
		{Index: 2, ToolName: "frobnicate", Category: lastCat, Status: lastStatus, RunID: "r2", LastSeq: 12},
	}
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemRun, Version: 1, ID: "r1", Status: model.StatusCompleted},
		{Seq: 2, Kind: model.ItemMessage, Version: 1, Role: "user", Text: "fix it"},
		{Seq: 3, Kind: model.ItemToolCall, Version: 1, Step: 0, RunID: "r1"},
		{Seq: 4, Kind: model.ItemMessage, Version: 1, Role: "assistant", Text: "and the module", RunID: "r1"},
		{Seq: 5, Kind: model.ItemToolCall, Version: 1, Step: 1, RunID: "r1"},
		{Seq: 6, Kind: model.ItemMessage, Version: 1, Role: "assistant", Text: "done", RunID: "r1"},
		{Seq: 7, Kind: model.ItemRun, Version: 1, ID: "r2", Name: "r1", Status: runStatus},
		{Seq: 8, Kind: model.ItemMessage, Version: 1, Role: "user", Text: "now frobnicate"},
		{Seq: 9, Kind: model.ItemToolCall, Version: 1, Step: 2, RunID: "r2"},
	}
	return items, steps
}

// cardsIn returns the index of each card's top border in plain rows, and
// whether it shows the live mark.
func cardsIn(rows []string) (tops []int, live []bool) {
	for i, r := range rows {
		if strings.Contains(r, "╭─ computer") {
			tops = append(tops, i)
			isLive := false
			for _, l := range rows[i:min(i+6, len(rows))] {
				isLive = isLive || strings.Contains(l, "● LIVE")
			}
			live = append(live, isLive)
		}
	}
	return tops, live
}

func TestTranscriptCard(t *testing.T) {
	// An all-"other" reply without screenshots has no card; the first reply
	// has one, below its last tool call, about its last step, not live.
	items, steps := cardItems(model.CategoryOther, model.StatusRunning, model.StatusOpen)
	tr := New()
	tr.SetItems(items, steps)
	rows := plainRows(allRows(tr, 80))
	tops, live := cardsIn(rows)
	if len(tops) != 1 || live[0] {
		t.Fatalf("cards at %v live %v, want one, not live:\n%s", tops, live, strings.Join(rows, "\n"))
	}
	if !strings.Contains(rows[tops[0]-1], "go.mod") || !strings.Contains(rows[tops[0]+1], "Read · go.mod") ||
		!strings.Contains(rows[tops[0]+2], "2 steps") || !strings.Contains(rows[tops[0]+7], "agent  done") {
		t.Errorf("card not after the reply's last tool call, about its last step:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.HasPrefix(rows[tops[0]], strings.Repeat(" ", gutterWidth)+"╭") {
		t.Errorf("card not in the text column: %q", rows[tops[0]])
	}

	// A screenshot gives the all-"other" reply a card; it is the newest and
	// its run is open: live.
	png := replysteps.PNG(t)
	steps[2].Screenshots = []model.Image{{MimeType: "image/png", Data: png}}
	steps[2].LastSeq = 13
	rows = plainRows(allRows(tr, 80))
	if tops, live = cardsIn(rows); len(tops) != 2 || live[0] || !live[1] {
		t.Fatalf("cards at %v live %v, want two, the newest live:\n%s", tops, live, strings.Join(rows, "\n"))
	}

	// The run finished and the step done: no longer live.
	items[6].Status = model.StatusCompleted
	steps[2].Status, steps[2].LastSeq = model.StatusCompleted, 14
	rows = plainRows(allRows(tr, 80))
	if tops, live = cardsIn(rows); len(tops) != 2 || live[1] {
		t.Fatalf("finished run: cards at %v live %v", tops, live)
	}

	// Narrow: the compact card, still one per reply, every line the width.
	for _, w := range []int{20, 30, 40} {
		rows := allRows(tr, w)
		checkView(t, rows, w, len(rows))
		if tops, _ := cardsIn(plainRows(rows)); len(tops) != 2 {
			t.Errorf("width %d: %d cards", w, len(tops))
		}
	}
}

func TestTranscriptCardLiveRunning(t *testing.T) {
	// The newest reply streams (its last step runs, though the run item was
	// not seen): live. The older reply never is.
	items, steps := cardItems(model.CategoryExecute, model.StatusRunning, model.StatusOpen)
	items = append(items[:6], items[7:]...) // no run separator for r2
	tr := New()
	tr.SetItems(items, steps)
	rows := plainRows(allRows(tr, 80))
	tops, live := cardsIn(rows)
	if len(tops) != 2 || live[0] || !live[1] {
		t.Fatalf("cards at %v live %v:\n%s", tops, live, strings.Join(rows, "\n"))
	}
	// A new user message: the reply is no longer the newest.
	items = append(items, &model.Item{Seq: 10, Kind: model.ItemMessage, Version: 1, Role: "user", Text: "stop"})
	tr.SetItems(items, steps)
	if tops, live = cardsIn(plainRows(allRows(tr, 80))); len(tops) != 2 || live[1] {
		t.Fatalf("after a new user message: cards at %v live %v", tops, live)
	}
}

func TestTranscriptCardCache(t *testing.T) {
	items, steps := cardItems(model.CategoryExecute, model.StatusRunning, model.StatusOpen)
	tr, _ := countingTranscript()
	tr.SetItems(items, steps)
	allRows(tr, 80)
	before := tr.renders
	allRows(tr, 80)
	if tr.renders != before {
		t.Errorf("unchanged items rendered again: %d renders", tr.renders-before)
	}
	// A step of the first reply (not the card owner's own) changes: only
	// the owner is drawn again.
	steps[0].Status, steps[0].LastSeq = model.StatusFailed, 20
	allRows(tr, 80)
	if n := tr.renders - before; n != 2 { // the step's own row and the card owner
		t.Errorf("%d renders after a step changed, want 2", n)
	}
	// A new tool call moves the card below it.
	steps = append(steps, &model.Step{Index: 3, ToolName: "grep", Category: model.CategorySearch, Location: "TODO", Status: model.StatusRunning, RunID: "r2", LastSeq: 21})
	items = append(items, &model.Item{Seq: 10, Kind: model.ItemToolCall, Version: 1, Step: 3, RunID: "r2"})
	tr.SetItems(items, steps)
	rows := plainRows(allRows(tr, 80))
	tops, _ := cardsIn(rows)
	if len(tops) != 2 || !strings.Contains(rows[tops[1]-1], "TODO") || !strings.Contains(rows[tops[1]+2], "2 steps") {
		t.Errorf("card did not move below the new tool call:\n%s", strings.Join(rows, "\n"))
	}
}

func TestTranscriptCardAt(t *testing.T) {
	items, steps := cardItems(model.CategoryExecute, model.StatusRunning, model.StatusOpen)
	tr := New()
	tr.SetItems(items, steps)
	tr.SetSize(80, 60)
	view := plainRows(tr.View())
	tops, _ := cardsIn(view)
	if len(tops) != 2 {
		t.Fatalf("cards at %v:\n%s", tops, strings.Join(view, "\n"))
	}
	for k, want := range []int{1, 2} {
		for r := tops[k]; r < tops[k]+6; r++ {
			if got, ok := tr.CardAt(r); !ok || got != want {
				t.Errorf("CardAt(%d) = %d, %v; want %d", r, got, ok, want)
			}
		}
		if _, ok := tr.CardAt(tops[k] - 1); ok {
			t.Errorf("CardAt(%d), the tool call row, is a card", tops[k]-1)
		}
	}
	for _, r := range []int{-1, 0, len(view) - 1, len(view), 1000} {
		if _, ok := tr.CardAt(r); ok {
			t.Errorf("CardAt(%d) is a card", r)
		}
	}
	// Scrolled so that a card is cut at the top: its rows still map.
	tr.SetSize(80, 5)
	view = plainRows(tr.View())
	for range 20 {
		if strings.ContainsAny(view[0], "│╰") {
			break
		}
		tr.ScrollBy(-1)
		view = plainRows(tr.View())
	}
	if !strings.ContainsAny(view[0], "│╰") {
		t.Fatalf("no card cut at the top of the view:\n%s", strings.Join(view, "\n"))
	}
	for r, l := range view {
		_, ok := tr.CardAt(r)
		if isCard := strings.ContainsAny(l, "│╭╰"); ok != isCard {
			t.Errorf("row %d %q: CardAt ok=%v", r, l, ok)
		}
	}
}

// ScrollTo puts an item at the top of the view and stops following; an
// item near the end, whose rows fit below, follows the bottom again.
func TestTranscriptScrollTo(t *testing.T) {
	var items []*model.Item
	for i := range 50 {
		items = append(items, &model.Item{Seq: uint64(i + 1), ID: fmt.Sprint("m", i), Kind: model.ItemMessage, Role: "assistant", Text: fmt.Sprint("message number ", i), Status: model.StatusCompleted, Step: -1})
	}
	tr := New()
	tr.SetItems(items, nil)
	tr.SetSize(60, 10)
	tr.View()
	tr.ScrollTo(20)
	view := tr.View()
	if tr.Following() || !strings.Contains(ansi.Strip(view[0]+view[1]), "message number 19") {
		t.Fatalf("after ScrollTo(20) the view starts %q", view[:2])
	}
	tr.ScrollTo(50)
	tr.View()
	if !tr.Following() {
		t.Error("ScrollTo the last item does not follow the bottom")
	}
	tr.ScrollTo(999)
	if !tr.Following() {
		t.Error("ScrollTo an unknown item moved the view")
	}
}

// A reply some of whose rows were shed (a gap row among them) counts the
// steps that began within it, shed ones too, not only the rows kept.
func TestTranscriptCardAcrossAGap(t *testing.T) {
	var steps []*model.Step
	for i := range 12 {
		steps = append(steps, &model.Step{Index: i, ToolName: "read", Category: model.CategoryRead, Location: "f.go",
			Status: model.StatusCompleted, RunID: "r1", FirstSeq: uint64(10 + 10*i), LastSeq: uint64(15 + 10*i), Shed: i < 9})
	}
	steps = append(steps, &model.Step{Index: 12, ToolName: "read", Category: model.CategoryRead, Location: "g.go",
		Status: model.StatusCompleted, RunID: "r2", FirstSeq: 500, LastSeq: 505})
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemRun, Version: 1, ID: "r1", Status: model.StatusCompleted, FirstSeq: 1},
		{Seq: 2, Kind: model.ItemMessage, Version: 1, Role: "user", Text: "read them", FirstSeq: 2},
		{Seq: 3, Kind: model.ItemGap, Version: 1, Text: "⋮ 9 items not kept", Step: -1},
	}
	for i := 9; i < 12; i++ {
		items = append(items, &model.Item{Seq: uint64(3 + i), Kind: model.ItemToolCall, Version: 1, Step: i, RunID: "r1", FirstSeq: steps[i].FirstSeq})
	}
	items = append(items,
		&model.Item{Seq: 15, Kind: model.ItemRun, Version: 1, ID: "r2", Status: model.StatusCompleted, FirstSeq: 400},
		&model.Item{Seq: 16, Kind: model.ItemToolCall, Version: 1, Step: 12, RunID: "r2", FirstSeq: 500})
	tr := New()
	tr.SetItems(items, steps)
	rows := plainRows(allRows(tr, 80))
	tops, _ := cardsIn(rows)
	if len(tops) != 2 {
		t.Fatalf("cards at %v, want two:\n%s", tops, strings.Join(rows, "\n"))
	}
	if !strings.Contains(rows[tops[0]+2], "12 steps") {
		t.Errorf("the card of the reply with a gap does not count its 12 steps:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.Contains(rows[tops[1]+2], "1 step") || strings.Contains(rows[tops[1]+2], "steps") {
		t.Errorf("the next reply's card counts more than its one step:\n%s", strings.Join(rows, "\n"))
	}
}

// A short transcript draws its computer cards in three lines, so the
// conversation keeps its rows: at 80×24 the sheet leaves it nine, and the
// full card took six of them.
func TestCompactCardsWhenShort(t *testing.T) {
	items, steps := cardItems(model.CategoryExecute, model.StatusFailed, model.StatusCompleted)
	for _, tc := range []struct{ h, rows int }{{9, 3}, {compactBelow - 1, 3}, {compactBelow, 6}, {40, 6}} {
		tr := New()
		tr.SetItems(items, steps)
		tr.SetSize(80, tc.h)
		view := plainRows(tr.View())
		bottom, top := -1, -1
		for i := len(view) - 1; i >= 0; i-- {
			if bottom < 0 && strings.Contains(view[i], "╰") {
				bottom = i
			}
			if bottom >= 0 && strings.Contains(view[i], "╭") {
				top = i
				break
			}
		}
		if top < 0 || bottom-top+1 != tc.rows {
			t.Errorf("height %d: the newest card is rows %d to %d, want %d rows:\n%s", tc.h, top, bottom, tc.rows, strings.Join(view, "\n"))
		}
	}
}

// The speaker column says a role whole when it fits the gutter with one
// space to spare: "system" is not cut to "syst…".
func TestSpeakerColumnWhole(t *testing.T) {
	tr := New()
	tr.SetItems([]*model.Item{
		{Seq: 1, Kind: model.ItemMessage, Version: 1, Role: "system", Text: "you are a coding agent", Step: -1},
		{Seq: 2, Kind: model.ItemMessage, Version: 1, Role: "orchestrator", Text: "plan first", Step: -1},
	}, nil)
	var got []string
	for _, r := range plainRows(allRows(tr, 60)) {
		if r != "" {
			got = append(got, r)
		}
	}
	if len(got) != 2 || got[0] != "system you are a coding agent" || got[1] != "orche… plan first" {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
}
