package computer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// timelineSteps makes n steps cycling through every category and the
// statuses completed, completed, failed, cancelled, running.
func timelineSteps(n int) []*model.Step {
	statuses := []model.Status{model.StatusCompleted, model.StatusCompleted, model.StatusFailed,
		model.StatusCancelled, model.StatusRunning}
	steps := make([]*model.Step, n)
	for i := range steps {
		steps[i] = &model.Step{
			Index:    i,
			Category: model.Categories[i%len(model.Categories)],
			Status:   statuses[i%len(statuses)],
		}
	}
	return steps
}

// checkTimeline fails unless every line is exactly width cells, closes every
// colour it opens, and has a hit for every cell.
func checkTimeline(t *testing.T, v TimelineView, width int) {
	t.Helper()
	if len(v.Lines) != 3 {
		t.Fatalf("%d lines, want 3", len(v.Lines))
	}
	for i, l := range v.Lines {
		if w := ansi.StringWidth(l); w != width {
			t.Errorf("line %d is %d cells, want %d: %q", i, w, width, l)
		}
		if sgr := viewtest.SGR.FindAllString(l, -1); len(sgr) > 0 && sgr[len(sgr)-1] != styles.Reset {
			t.Errorf("line %d leaves a colour open: %q", i, l)
		}
		if strings.ContainsAny(ansi.Strip(l), "\x1b\n\r\t") {
			t.Errorf("line %d has control characters: %q", i, l)
		}
		if len(v.hits[i]) != width {
			t.Errorf("line %d has %d hit cells, want %d", i, len(v.hits[i]), width)
		}
	}
}

// colOf returns the cell column where sub first appears on the visible line, or -1.
func colOf(line, sub string) int {
	plain := ansi.Strip(line)
	i := strings.Index(plain, sub)
	if i < 0 {
		return -1
	}
	return ansi.StringWidth(plain[:i])
}

func TestCategoryIconAndShort(t *testing.T) {
	want := map[model.Category]string{
		model.CategoryRead: "read", model.CategoryEdit: "edit", model.CategoryDelete: "del",
		model.CategoryMove: "move", model.CategorySearch: "find", model.CategoryExecute: "exec",
		model.CategoryThink: "think", model.CategoryFetch: "fetch", model.CategorySwitchMode: "mode",
		model.CategoryOther: "tool",
	}
	icons := map[string]model.Category{}
	for _, c := range model.Categories {
		icon := render.CategoryIcon(c)
		if w := ansi.StringWidth(icon); w != 1 || len([]rune(icon)) != 1 {
			t.Errorf("%s: icon %q is %d cells, want one rune of one cell", c, icon, w)
		}
		if other, dup := icons[icon]; dup {
			t.Errorf("%s and %s share the icon %q", c, other, icon)
		}
		icons[icon] = c
		if strings.ContainsAny(icon, "●○◉✗◀▶─├┤‹›[]") {
			t.Errorf("%s: icon %q is also a slider or button glyph", c, icon)
		}
		if got := render.CategoryShort(c); got != want[c] || len(got) > 5 {
			t.Errorf("CategoryShort(%s) = %q, want %q", c, got, want[c])
		}
	}
	if render.CategoryIcon("teleport") != render.CategoryIcon(model.CategoryOther) || render.CategoryShort("") != "tool" {
		t.Error("an unknown category should look like other")
	}
}

func TestTimelineWidths(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 12, 500} {
		for _, width := range []int{0, 1, 2, 3, 5, 8, 12, 19, 20, 21, 33, 40, 60, 61, 200} {
			for _, cur := range []int{-3, 0, n / 2, n - 1, n + 4} {
				for _, flags := range []TimelineState{{}, {Playing: true}, {Live: true}, {Playing: true, Live: true}} {
					s := flags
					s.Steps, s.Current = timelineSteps(n), cur
					name := fmt.Sprintf("n=%d/w=%d/cur=%d/play=%v/live=%v", n, width, cur, s.Playing, s.Live)
					t.Run(name, func(t *testing.T) {
						v := Timeline(s, width)
						checkTimeline(t, v, width)
						if n == 0 || width < 5 {
							return
						}
						// The current step is always marked on the slider and visible on the chip row.
						c := max(0, min(cur, n-1))
						if strings.Count(ansi.Strip(v.Lines[TimelineSlider]), "◉") != 1 {
							t.Errorf("slider does not mark one current step: %q", v.Lines[TimelineSlider])
						}
						found := false
						for col := range width {
							if h := v.HitAt(TimelineChips, col); h.Kind == HitChip && h.Step == c {
								found = true
							}
						}
						if !found {
							t.Errorf("current chip %d not visible: %q", c, v.Lines[TimelineChips])
						}
					})
				}
			}
		}
	}
}

func TestTimelineNoSteps(t *testing.T) {
	v := Timeline(TimelineState{Live: true}, 60)
	checkTimeline(t, v, 60)
	slider := ansi.Strip(v.Lines[TimelineSlider])
	if want := "├" + strings.Repeat("─", 58) + "┤"; slider != want {
		t.Errorf("slider = %q, want an empty track", slider)
	}
	if strings.TrimSpace(ansi.Strip(v.Lines[TimelineChips])) != "" {
		t.Errorf("chips = %q, want blank", v.Lines[TimelineChips])
	}
	controls := ansi.Strip(v.Lines[TimelineControls])
	for _, want := range []string{"◀ prev", "▶ play", "next ▶", "● LIVE"} {
		if !strings.Contains(controls, want) {
			t.Errorf("controls %q lack %q", controls, want)
		}
	}
	for _, col := range []int{-1, 0, 30, 59, 60} {
		if h := v.HitAt(TimelineSlider, col); h.Kind != HitNone {
			t.Errorf("slider col %d hits %v with no steps", col, h)
		}
		if got := v.SliderStep(col); got != -1 {
			t.Errorf("SliderStep(%d) = %d with no steps, want -1", col, got)
		}
	}
}

func TestTimelineOneStep(t *testing.T) {
	v := Timeline(TimelineState{Steps: timelineSteps(1), Live: true}, 60)
	checkTimeline(t, v, 60)
	if slider := ansi.Strip(v.Lines[TimelineSlider]); strings.Count(slider, "◉") != 1 ||
		strings.ContainsAny(slider, "●○✗") {
		t.Errorf("slider = %q, want one current tick", slider)
	}
	if chips := strings.TrimRight(ansi.Strip(v.Lines[TimelineChips]), " "); chips != "[▤ read]" {
		t.Errorf("chips = %q, want [▤ read]", chips)
	}
	for _, col := range []int{-10, 0, 1, 30, 59, 100} {
		if got := v.SliderStep(col); got != 0 {
			t.Errorf("SliderStep(%d) = %d, want 0", col, got)
		}
	}
	if h := v.HitAt(TimelineChips, 3); h != (Hit{HitChip, 0}) {
		t.Errorf("chip click = %v, want chip 0", h)
	}
}

func TestTimelineSevenSteps(t *testing.T) {
	steps := timelineSteps(7)
	v := Timeline(TimelineState{Steps: steps, Current: 6, Live: true}, 60)
	checkTimeline(t, v, 60)
	slider := ansi.Strip(v.Lines[TimelineSlider])
	ticks := 0
	for _, r := range slider {
		if strings.ContainsRune("●○✗◉", r) {
			ticks++
		}
	}
	if ticks != 7 || !strings.HasPrefix(slider, "├─") || !strings.HasSuffix(slider, "─┤") {
		t.Errorf("slider = %q, want 7 ticks between the caps", slider)
	}
	if i, j := strings.Index(slider, "✗"), strings.Index(slider, "◉"); i < 0 || j < i {
		t.Errorf("slider = %q, want the failed step 2 before the current step 6", slider)
	}
	chips := strings.TrimRight(ansi.Strip(v.Lines[TimelineChips]), " ")
	// The current chip's brackets take the separators either side of it.
	if want := " ▤ read ✎ edit ⌫ del ⇄ move ⌕ find ❯ exec[◌ think]"; chips != want {
		t.Errorf("chips = %q, want %q", chips, want)
	}
	// Selecting another step moves the brackets, not the chips.
	v3 := Timeline(TimelineState{Steps: steps, Current: 3}, 60)
	if want := " ▤ read ✎ edit ⌫ del[⇄ move]⌕ find ❯ exec ◌ think"; strings.TrimRight(ansi.Strip(v3.Lines[TimelineChips]), " ") != want {
		t.Errorf("chips = %q, want %q", ansi.Strip(v3.Lines[TimelineChips]), want)
	}
}

func TestTimelineCompressed(t *testing.T) {
	const n, width = 500, 60
	steps := timelineSteps(n)
	for _, tc := range []struct {
		name        string
		cur         int
		left, right bool // scroll markers
	}{
		{"start", 0, false, true},
		{"middle", 250, true, true},
		{"end", n - 1, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Timeline(TimelineState{Steps: steps, Current: tc.cur}, width)
			checkTimeline(t, v, width)
			slider := []rune(ansi.Strip(v.Lines[TimelineSlider]))
			if strings.ContainsRune(string(slider[1:width-1]), '─') {
				t.Errorf("slider %q has bare track with more steps than cells", string(slider))
			}
			// The current step is marked in the cell that stands for it.
			cell := 1 + (2*tc.cur+1)*(width-2)/(2*n)
			if slider[cell] != '◉' || strings.Count(string(slider), "◉") != 1 {
				t.Errorf("slider %q: want the one ◉ at column %d", string(slider), cell)
			}
			chips := v.Lines[TimelineChips]
			plain := []rune(ansi.Strip(chips))
			if got := plain[0] == '‹'; got != tc.left {
				t.Errorf("left marker %v, want %v: %q", got, tc.left, string(plain))
			}
			if got := plain[width-1] == '›'; got != tc.right {
				t.Errorf("right marker %v, want %v: %q", got, tc.right, string(plain))
			}
			open := colOf(chips, "[")
			if open < 0 || v.HitAt(TimelineChips, open+1) != (Hit{HitChip, tc.cur}) {
				t.Fatalf("current chip %d not bracketed: %q", tc.cur, string(plain))
			}
			// The visible chips are consecutive steps around the current one.
			first, last := -1, -1
			for col := 1; col < width-1; col++ {
				if h := v.HitAt(TimelineChips, col); h.Kind == HitChip {
					if first < 0 {
						first = h.Step
					}
					if h.Step < last {
						t.Fatalf("chips out of order at column %d: %q", col, string(plain))
					}
					last = h.Step
				}
			}
			if tc.left {
				if h := v.HitAt(TimelineChips, 0); h != (Hit{HitChip, first - 1}) {
					t.Errorf("‹ hits %v, want chip %d", h, first-1)
				}
			}
			if tc.right {
				if h := v.HitAt(TimelineChips, width-1); h != (Hit{HitChip, last + 1}) {
					t.Errorf("› hits %v, want chip %d", h, last+1)
				}
			}
			if tc.name == "middle" && (tc.cur-first < 2 || last-tc.cur < 2) {
				t.Errorf("current chip %d is not near the middle of %d..%d", tc.cur, first, last)
			}
		})
	}
}

// longRun makes n completed steps of every category, with failures at the
// given indices and the last step still running, like a real long run.
func longRun(n int, failed ...int) []*model.Step {
	steps := timelineSteps(n)
	for _, s := range steps {
		s.Status = model.StatusCompleted
	}
	for _, i := range failed {
		steps[i].Status = model.StatusFailed
	}
	steps[n-1].Status = model.StatusRunning
	return steps
}

// A slider cell that stands for many steps shows the share of them that
// failed honestly: 265 failures spread over 19,657 steps do not paint the
// slider red; a cell most of whose steps failed is ✗, one a tenth to half
// of whose steps failed is ×, and each seeks near them.
func TestTimelineSliderShowsShares(t *testing.T) {
	const width = 200
	var spread []int
	for i := 37; len(spread) < 265; i += 74 {
		spread = append(spread, i)
	}
	if len(spread) != 265 {
		t.Fatalf("%d failures", len(spread))
	}
	v := Timeline(TimelineState{Steps: longRun(19657, spread...), Current: 5000}, width)
	checkTimeline(t, v, width)
	slider := ansi.Strip(v.Lines[TimelineSlider])
	if n := strings.Count(slider, "✗") + strings.Count(slider, "×"); n != 0 {
		t.Errorf("265 failures in 19,657 steps paint %d cells: %q", n, slider)
	}
	if strings.Contains(v.Lines[TimelineSlider], "\x1b[31m") {
		t.Errorf("the slider is drawn red: %q", v.Lines[TimelineSlider])
	}

	// 100 steps a cell (t = 198 cells): one failure in a cell is not a
	// failed cell; 60 of 100 are ✗; 20 of 100 are ×.
	const n = 100 * (width - 2)
	failed := []int{150}
	for i := 1000; i < 1060; i++ {
		failed = append(failed, i)
	}
	for i := 5000; i < 5020; i++ {
		failed = append(failed, i)
	}
	v = Timeline(TimelineState{Steps: longRun(n, failed...), Current: 15000}, width)
	slider = ansi.Strip(v.Lines[TimelineSlider])
	var full, some []int
	for col, r := range []rune(slider) {
		switch r {
		case '✗':
			full = append(full, v.SliderStep(col))
		case '×':
			some = append(some, v.SliderStep(col))
		}
	}
	abs := func(x int) int { return max(x, -x) }
	if len(full) != 1 || abs(full[0]-1030) > 100 {
		t.Errorf("✗ cells seek to %v, want one near 1030: %q", full, slider)
	}
	if len(some) != 1 || abs(some[0]-5010) > 100 {
		t.Errorf("× cells seek to %v, want one near 5010: %q", some, slider)
	}
	if got := strings.Count(slider, "○"); got != 1 || !strings.HasSuffix(slider, "○┤") {
		t.Errorf("slider should end with the running step: %q", slider)
	}
}

func TestTimelineHits(t *testing.T) {
	steps := timelineSteps(7)
	for _, width := range []int{60, 40, 20} {
		for _, live := range []bool{true, false} {
			t.Run(fmt.Sprintf("w=%d/live=%v", width, live), func(t *testing.T) {
				v := Timeline(TimelineState{Steps: steps, Current: 2, Live: live}, width)
				checkTimeline(t, v, width)
				controls := v.Lines[TimelineControls]
				for _, b := range []struct {
					label []string // the first form present is clicked
					kind  HitKind
				}{
					{[]string{"◀ prev", "◀"}, HitPrev},
					{[]string{"▶ play", "play"}, HitPlay},
					{[]string{"next ▶", " ▶"}, HitNext},
					{[]string{"● LIVE", "⏭ Back to live", "⏭ live"}, HitLive},
				} {
					col := -1
					for _, l := range b.label {
						if col = colOf(controls, l); col >= 0 {
							col += ansi.StringWidth(l) - 1 // the last cell of the label
							break
						}
					}
					if col < 0 {
						t.Errorf("controls %q lack %v", ansi.Strip(controls), b.label)
						continue
					}
					if h := v.HitAt(TimelineControls, col); h.Kind != b.kind {
						t.Errorf("%v at column %d hits %v, want %v", b.label, col, h.Kind, b.kind)
					}
				}
				// Every chip cell selects its step; nothing else on the row does.
				chips := ansi.Strip(v.Lines[TimelineChips])
				for i, s := range steps {
					word := render.CategoryShort(s.Category)
					col := colOf(v.Lines[TimelineChips], word)
					if col < 0 {
						continue // scrolled away at narrow widths
					}
					if h := v.HitAt(TimelineChips, col); h != (Hit{HitChip, i}) {
						t.Errorf("chip %q at %d in %q hits %v, want chip %d", word, col, chips, h, i)
					}
				}
				if width == 60 {
					if h := v.HitAt(TimelineChips, width-1); h.Kind != HitNone {
						t.Errorf("padding hits %v", h)
					}
				}
				if got := v.SliderStep(0); got != 0 {
					t.Errorf("SliderStep(0) = %d, want 0", got)
				}
				if got := v.SliderStep(width - 1); got != len(steps)-1 {
					t.Errorf("SliderStep(%d) = %d, want %d", width-1, got, len(steps)-1)
				}
				if got := v.SliderStep(-4); got != 0 {
					t.Errorf("SliderStep(-4) = %d, want 0", got)
				}
				if got := v.SliderStep(width + 9); got != len(steps)-1 {
					t.Errorf("SliderStep(past the end) = %d, want the last step", got)
				}
			})
		}
	}
	v := Timeline(TimelineState{Steps: steps}, 60)
	for _, at := range [][2]int{{-1, 0}, {3, 0}, {0, -1}, {0, 60}, {2, 1000}} {
		if h := v.HitAt(at[0], at[1]); h != (Hit{HitNone, -1}) {
			t.Errorf("HitAt(%d, %d) = %v outside the view, want none", at[0], at[1], h)
		}
	}
}

// TestTimelineTickRoundTrip checks that, while every step has its own cell,
// clicking a step's tick seeks to that very step and dragging across the
// slider visits every step in order.
func TestTimelineTickRoundTrip(t *testing.T) {
	for _, width := range []int{20, 33, 60} {
		for n := 1; n <= width-2; n++ {
			steps := timelineSteps(n)
			for cur := range n {
				v := Timeline(TimelineState{Steps: steps, Current: cur}, width)
				col := colOf(v.Lines[TimelineSlider], "◉")
				if got := v.SliderStep(col); got != cur {
					t.Fatalf("w=%d n=%d: tick of step %d at column %d seeks to %d", width, n, cur, col, got)
				}
				if h := v.HitAt(TimelineSlider, col); h != (Hit{HitTick, cur}) {
					t.Fatalf("w=%d n=%d: tick hit %v, want step %d", width, n, h, cur)
				}
			}
			v := Timeline(TimelineState{Steps: steps}, width)
			prev, seen := 0, map[int]bool{}
			for col := range width {
				s := v.SliderStep(col)
				if s < prev {
					t.Fatalf("w=%d n=%d: dragging right goes back from %d to %d", width, n, prev, s)
				}
				prev = s
				seen[s] = true
			}
			if len(seen) != n {
				t.Fatalf("w=%d n=%d: dragging reaches %d steps", width, n, len(seen))
			}
		}
	}
}

func TestTimelineStatusColours(t *testing.T) {
	v := Timeline(TimelineState{Steps: timelineSteps(7), Current: 1}, 60)
	chips := v.Lines[TimelineChips]
	for _, want := range []struct{ sgr, what string }{
		{"\x1b[32m▤ read", "completed green"},
		{"\x1b[32;7m✎ edit", "current reversed"},
		{"\x1b[31m⌫ del", "failed red"},
		{"\x1b[2m⇄ move", "cancelled dim"},
		{"\x1b[33m⌕ find", "running yellow"},
	} {
		if !strings.Contains(chips, want.sgr) {
			t.Errorf("chips lack %s (%q): %q", want.what, want.sgr, chips)
		}
	}
	slider := v.Lines[TimelineSlider]
	for _, want := range []string{"\x1b[32m●", "\x1b[31m✗", "\x1b[2m●", "\x1b[33m○", "\x1b[1;32m◉"} {
		if !strings.Contains(slider, want) {
			t.Errorf("slider lacks %q: %q", want, slider)
		}
	}
	pending := []*model.Step{{Category: model.CategoryFetch, Status: model.StatusPending}, nil}
	v = Timeline(TimelineState{Steps: pending, Current: 1}, 40)
	checkTimeline(t, v, 40)
	if !strings.Contains(v.Lines[TimelineChips], "\x1b[33m⇣ fetch") {
		t.Errorf("pending chip is not yellow: %q", v.Lines[TimelineChips])
	}
}

func TestTimelineControls(t *testing.T) {
	steps := timelineSteps(7)
	for _, tc := range []struct {
		s        TimelineState
		width    int
		has, not []string
	}{
		{TimelineState{Steps: steps, Current: 6, Live: true}, 60, []string{"● LIVE", "▶ play"}, []string{"Back to live", "pause"}},
		{TimelineState{Steps: steps, Current: 2}, 60, []string{"⏭ Back to live", "▶ play"}, []string{"LIVE"}},
		{TimelineState{Steps: steps, Current: 2, Playing: true}, 60, []string{"❚❚ pause", "⏭ Back to live"}, []string{"▶ play"}},
		{TimelineState{Steps: steps, Current: 2, Playing: true}, 20, []string{"◀ pause ▶", "⏭ live"}, []string{"play"}},
		{TimelineState{Steps: steps, Current: 2, Live: true}, 20, []string{"◀ play ▶", "● LIVE"}, nil},
		{TimelineState{Steps: steps, Current: 2}, 36, []string{"◀ prev ▶ play next ▶", "⏭ Back to live"}, nil},
	} {
		controls := ansi.Strip(Timeline(tc.s, tc.width).Lines[TimelineControls])
		for _, want := range tc.has {
			if !strings.Contains(controls, want) {
				t.Errorf("%+v at %d: controls %q lack %q", tc.s, tc.width, controls, want)
			}
		}
		for _, bad := range tc.not {
			if strings.Contains(controls, bad) {
				t.Errorf("%+v at %d: controls %q show %q", tc.s, tc.width, controls, bad)
			}
		}
	}
	// Buttons that would do nothing are dim: no prev at the first step, no next at the last.
	first := Timeline(TimelineState{Steps: steps}, 60).Lines[TimelineControls]
	last := Timeline(TimelineState{Steps: steps, Current: 6}, 60).Lines[TimelineControls]
	if !strings.Contains(first, "\x1b[2m◀ prev") || strings.Contains(first, "\x1b[2mnext ▶") {
		t.Errorf("first step: %q", first)
	}
	if strings.Contains(last, "\x1b[2m◀ prev") || !strings.Contains(last, "\x1b[2mnext ▶") {
		t.Errorf("last step: %q", last)
	}
}

// TestTimelineChipsLookOnlyAtVisibleSteps checks that laying out the chip row
// asks for the width of the chips it shows and their two neighbours at most.
func TestTimelineChipsLookOnlyAtVisibleSteps(t *testing.T) {
	for _, cur := range []int{0, 5000, 9999} {
		calls := 0
		a, b, ok := chipWindow(10000, cur, 200, func(i int) int { calls++; return 6 })
		if !ok || calls > (b-a+1)+2+1 {
			t.Errorf("cur=%d: %d width calls for %d visible chips", cur, calls, b-a+1)
		}
	}
	small := TimelineState{Steps: timelineSteps(100), Current: 50}
	large := TimelineState{Steps: timelineSteps(100000), Current: 50000}
	allocs := func(s TimelineState) float64 { return testing.AllocsPerRun(20, func() { Timeline(s, 200) }) }
	if a, b := allocs(small), allocs(large); b > a {
		t.Errorf("Timeline allocates %v times for 100,000 steps and %v for 100", b, a)
	}
}

func TestHitKindString(t *testing.T) {
	for k, want := range map[HitKind]string{HitNone: "none", HitChip: "chip", HitTick: "tick", HitPrev: "prev",
		HitPlay: "play", HitNext: "next", HitLive: "live", HitKind(99): "unknown"} {
		if got := k.String(); got != want {
			t.Errorf("HitKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestTimelineGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     TimelineState
		width int
	}{
		{"empty-60", TimelineState{Live: true}, 60},
		{"7-live-60", TimelineState{Steps: timelineSteps(7), Current: 6, Live: true}, 60},
		{"7-review-playing-60", TimelineState{Steps: timelineSteps(7), Current: 3, Playing: true}, 60},
		{"500-middle-60", TimelineState{Steps: longRun(500, 40, 260), Current: 250}, 60},
		{"12-narrow-20", TimelineState{Steps: timelineSteps(12), Current: 5}, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Timeline(tc.s, tc.width)
			checkTimeline(t, v, tc.width)
			got := strings.Join(v.Lines, "\n") + "\n"
			golden.RequireEqual(t, got)
		})
	}
}

// BenchmarkTimeline lays out 10,000 steps at 200 columns, current in the middle.
func BenchmarkTimeline(b *testing.B) {
	s := TimelineState{Steps: timelineSteps(10000), Current: 5000}
	b.ReportAllocs()
	for b.Loop() {
		Timeline(s, 200)
	}
}

// A step whose status is not known any more (the screen forgot it) is
// drawn dim and done, not as a step still running.
func TestTimelineUnknownStatus(t *testing.T) {
	steps := []*model.Step{{Category: model.CategoryOther}, {Category: model.CategoryRead, Status: model.StatusCompleted}}
	v := Timeline(TimelineState{Steps: steps, Current: 1}, 20)
	checkTimeline(t, v, 20)
	if slider := ansi.Strip(v.Lines[TimelineSlider]); strings.ContainsRune(slider, '○') || !strings.ContainsRune(slider, '●') {
		t.Errorf("slider = %q, want the unknown step done (●), not running (○)", slider)
	}
	if !strings.Contains(v.Lines[TimelineSlider], "\x1b["+styles.ParamDim+"m●") {
		t.Errorf("slider = %q, want the unknown step dim", v.Lines[TimelineSlider])
	}
}
