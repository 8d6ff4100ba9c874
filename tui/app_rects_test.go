package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
)

// layoutSizes are the window sizes the layout tests try: tiny ones, where
// parts give way, and ordinary ones on both sides of sideMinWidth.
var layoutSizes = [][2]int{{1, 1}, {2, 2}, {3, 3}, {20, 5}, {40, 8}, {80, 7}, {80, 24}, {119, 30}, {120, 40}, {160, 48}}

// namedRect is a rectangle of a layout and what it is, for messages.
type namedRect struct {
	name string
	r    rect
}

// drawnParts are the rectangles relayout draws into; together they are
// the screen.
func drawnParts(l screenLayout) []namedRect {
	parts := []namedRect{
		{"list title", l.listTitle}, {"list", l.list},
		{"transcript title", l.transcriptTitle}, {"transcript", l.transcript}, {"separator", l.separator},
		{"panel title", l.panelTitle},
		{"search", l.search}, {"agent", l.agent}, {"footer", l.footer},
	}
	if l.timeline.h > 0 { // a step: its parts tile the panel's body
		return append(parts, namedRect{"header", l.header}, namedRect{"panel view", l.panelView},
			namedRect{"status", l.status}, namedRect{"replay bar", l.replayBar}, namedRect{"timeline", l.timeline})
	}
	return append(parts, namedRect{"panel body", l.panel})
}

// checkLayout fails unless the drawn parts of l cover every cell of a w×h
// screen exactly once and every hit rectangle lies in the part it is part
// of.
func checkLayout(t *testing.T, name string, l screenLayout, w, h int) {
	t.Helper()
	screen := rect{0, 0, w, h}
	if l.screen != screen {
		t.Errorf("%s: screen %+v, want %+v", name, l.screen, screen)
	}
	parts := drawnParts(l)
	cover := make([]int, w*h)
	for i, p := range parts {
		if !p.r.within(screen) {
			t.Errorf("%s: %s %+v is not inside the %dx%d screen", name, p.name, p.r, w, h)
			continue
		}
		for _, q := range parts[i+1:] {
			if p.r.overlaps(q.r) {
				t.Errorf("%s: %s %+v overlaps %s %+v", name, p.name, p.r, q.name, q.r)
			}
		}
		for y := p.r.y; y < p.r.bottom() && !p.r.empty(); y++ {
			for x := p.r.x; x < p.r.right(); x++ {
				cover[y*w+x]++
			}
		}
	}
	for i, n := range cover {
		if n != 1 {
			t.Errorf("%s: cell (%d, %d) is drawn by %d parts", name, i%w, i/w, n)
			break
		}
	}
	inside := []struct {
		part, in namedRect
	}{
		{namedRect{"live mark", l.liveMark}, namedRect{"header", l.header}},
		{namedRect{"run tree", l.runTree}, namedRect{"panel view", l.panelView}},
		{namedRect{"replay bar", l.replayBar}, namedRect{"panel body", l.panel}},
		{namedRect{"wait line", l.wait}, namedRect{"panel body", l.panel}},
		{namedRect{"timeline", l.timeline}, namedRect{"panel body", l.panel}},
		{namedRect{"panel title", l.panelTitle}, namedRect{"panel pane", l.panelPane}},
		{namedRect{"panel body", l.panel}, namedRect{"panel pane", l.panelPane}},
		{namedRect{"transcript title", l.transcriptTitle}, namedRect{"transcript pane", l.transcriptPane}},
		{namedRect{"transcript", l.transcript}, namedRect{"transcript pane", l.transcriptPane}},
	}
	for _, c := range inside {
		if !c.part.r.within(c.in.r) {
			t.Errorf("%s: %s %+v is not inside %s %+v", name, c.part.name, c.part.r, c.in.name, c.in.r)
		}
	}
	if l.wait.overlaps(l.replayBar) {
		t.Errorf("%s: the wait line %+v is on the replay bar %+v", name, l.wait, l.replayBar)
	}
	if h > 0 && l.footer != (rect{0, h - 1, w, 1}) {
		t.Errorf("%s: footer %+v, want the last row", name, l.footer)
	}
}

// The layout's drawn parts tile the screen, whatever its size and
// arrangement, and the panel gives rows up from the top: its timeline is
// the last part to go.
func TestLayOutTiles(t *testing.T) {
	arrangements := []struct {
		name string
		in   layoutInput
	}{
		{"sheet", layoutInput{step: true}},
		{"side", layoutInput{sideBySide: true, step: true}},
		{"zoom", layoutInput{zoom: true, step: true, sideBySide: true}},
		{"hidden panel", layoutInput{hidePanel: true, step: true}},
		{"waiting", layoutInput{}},
		{"waiting side replay", layoutInput{sideBySide: true, replay: true}},
		{"replay", layoutInput{step: true, replay: true}},
		{"run tree", layoutInput{step: true, runTree: true, sideBySide: true}},
		{"search and agent", layoutInput{step: true, searchRows: 1, agentRows: 4, sideBySide: true}},
		{"list", layoutInput{listing: true}},
		{"list search", layoutInput{listing: true, searchRows: 1}},
	}
	for _, sz := range layoutSizes {
		for _, ar := range arrangements {
			in := ar.in
			in.w, in.h, in.markCells = sz[0], sz[1], 6
			if in.sideBySide && in.w < 3 {
				continue // sideBySide is never so for fewer than three columns
			}
			name := fmt.Sprintf("%s %dx%d", ar.name, sz[0], sz[1])
			l := layOut(in)
			checkLayout(t, name, l, in.w, in.h)
			if in.step && !l.panel.empty() {
				if want := min(computer.TimelineLines, l.panel.h); l.timeline.h != want {
					t.Errorf("%s: the timeline has %d rows of a body of %d, want %d", name, l.timeline.h, l.panel.h, want)
				}
				if l.timeline.bottom() != l.panel.bottom() || (l.header.h > 0 && l.header.y != l.panel.y) {
					t.Errorf("%s: header %+v and timeline %+v are not at the top and the bottom of the body %+v", name, l.header, l.timeline, l.panel)
				}
				if l.header.h > 0 && l.status.h == 0 {
					t.Errorf("%s: the header is shown and the status line below it is not", name)
				}
			}
			if in.zoom && l.transcriptPane != (rect{}) {
				t.Errorf("%s: zoomed, the transcript is laid out at %+v", name, l.transcriptPane)
			}
			if in.hidePanel && l.panelPane != (rect{}) {
				t.Errorf("%s: hidden, the panel is laid out at %+v", name, l.panelPane)
			}
		}
	}
}

// checkFrame fails unless a's frame and View are exactly the screen: as
// many lines as it is high, each as wide as it is.
func checkFrame(t *testing.T, name string, a *App) {
	t.Helper()
	w, h := a.width, a.height
	if len(a.frame) != h {
		t.Errorf("%s: the frame has %d lines, want %d", name, len(a.frame), h)
	}
	for i, l := range a.frame {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: frame line %d is %d cells, want %d: %q", name, i, n, w, ansi.Strip(l))
		}
	}
	shown := strings.Split(a.View().Content, "\n")
	if len(shown) != h {
		t.Errorf("%s: the view has %d lines, want %d", name, len(shown), h)
	}
	for i, l := range shown {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: view line %d is %d cells, want %d", name, i, n, w)
		}
	}
	checkLayout(t, name, a.geo.screenLayout, w, h)
}

// Every screen draws exactly its size, in every mode and arrangement, at
// every size from a cell up.
func TestAppFrameIsTheScreen(t *testing.T) {
	screens := []struct {
		name string
		make func(t *testing.T) *App
	}{
		{"sheet", func(t *testing.T) *App {
			return newDemoApp(t, 80, 24, true, AppOptions{Layout: LayoutSheet}).App
		}},
		{"side", func(t *testing.T) *App {
			return newDemoApp(t, 80, 24, true, AppOptions{Layout: LayoutSide}).App
		}},
		{"live back", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, false, AppOptions{})
			d.press("left", "left")
			return d.App
		}},
		{"zoom", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, true, AppOptions{})
			d.press("z")
			return d.App
		}},
		{"hidden panel", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, true, AppOptions{})
			d.press("c")
			return d.App
		}},
		{"run tree search", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, true, AppOptions{Layout: LayoutSide})
			d.press("t", "/", "e")
			return d.App
		}},
		{"filter hides all", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, true, AppOptions{Filter: "text:zzzqqq"})
			if !d.filtering() || len(d.filter.kept) > 0 || d.geo.wait.empty() {
				t.Fatalf("the filter keeps %d steps, wait line %+v", len(d.filter.kept), d.geo.wait)
			}
			return d.App
		}},
		{"help", func(t *testing.T) *App {
			d := newDemoApp(t, 80, 24, true, AppOptions{})
			d.press("?")
			return d.App
		}},
		{"replay", func(t *testing.T) *App {
			a, _, _ := newReplayTestApp(t, 80, 24)
			a.pressAll("5")
			return a
		}},
		{"replay start", func(t *testing.T) *App {
			a, _, _ := newReplayTestApp(t, 80, 24)
			return a
		}},
		{"thread list", func(t *testing.T) *App {
			return newThreadsApp(t, 80, 24, AppOptions{}, model.Batch{Source: threadsSource, Records: threadsRecords(t)}).App
		}},
		{"thread list search", func(t *testing.T) *App {
			a := newThreadsApp(t, 80, 24, AppOptions{}, model.Batch{Source: threadsSource, Records: threadsRecords(t)}).App
			a.pressAll("/", "a")
			if a.searchLine() == "" {
				t.Fatal("/ a: no search line under the thread list")
			}
			return a
		}},
		{"session", func(t *testing.T) *App {
			a, _ := newAgentTestApp(t, 80, 24)
			return a
		}},
	}
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			a := sc.make(t)
			for _, sz := range layoutSizes {
				a.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				checkFrame(t, fmt.Sprintf("%s %dx%d", sc.name, sz[0], sz[1]), a)
			}
		})
	}
}

// hitSpan is a run of cells of a timeline line that mean the same click.
type hitSpan struct {
	hit      computer.Hit
	from, to int // columns, to excluded
}

// timelineSpans are the spans of line of the timeline a's layout shows.
func timelineSpans(a *App, line int) []hitSpan {
	var out []hitSpan
	for col := 0; col < a.geo.timeline.w; col++ {
		h := a.geo.timelineView.HitAt(line, col)
		if n := len(out); n > 0 && out[n-1].hit == h && out[n-1].to == col {
			out[n-1].to++
			continue
		}
		out = append(out, hitSpan{h, col, col + 1})
	}
	return out
}

// clickSpan clicks the middle of the first span of line whose hit is
// kind (and, for want >= 0, whose step is want, or, for want < -1, is not
// the selected one); ok is false when the timeline shows none.
func clickSpan(a *App, line int, kind computer.HitKind, want int) (computer.Hit, bool) {
	row := a.geo.timeline.bottom() - computer.TimelineLines + line
	if row < a.geo.timeline.y {
		return computer.Hit{}, false // not drawn
	}
	for _, s := range timelineSpans(a, line) {
		if s.hit.Kind != kind || (want >= 0 && s.hit.Step != want) || (want < -1 && s.hit.Step == a.selected) {
			continue
		}
		x := a.geo.timeline.x + (s.from+s.to-1)/2
		if !a.geo.timeline.contains(x, row) {
			return computer.Hit{}, false
		}
		a.Update(tea.MouseClickMsg{X: x, Y: row, Button: tea.MouseLeft})
		return s.hit, true
	}
	return computer.Hit{}, false
}

// A click in the middle of each thing the mouse can hit does what it
// says: a chip selects its step, prev and next move by one, play plays,
// the live button and the header's mark go back to live, a transcript row
// selects its step — side by side, in a sheet, and with a panel so short
// that only part of its timeline is drawn.
func TestAppClickHitRects(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		opts AppOptions
	}{
		{"side", 160, 48, AppOptions{}},
		{"sheet", 100, 30, AppOptions{}},
		{"short sheet", 100, 7, AppOptions{Layout: LayoutSheet}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDemoApp(t, c.w, c.h, false, c.opts)
			if c.name == "short sheet" && (d.geo.timeline.h != 2 || d.geo.timeline.contains(d.geo.timeline.x, d.geo.panelTitle.y)) {
				t.Fatalf("the short panel's timeline is at %+v under the title at %+v; want its last two lines", d.geo.timeline, d.geo.panelTitle)
			}
			last := len(d.fold.Steps()) - 1
			hit, ok := clickSpan(d.App, computer.TimelineChips, computer.HitChip, -2)
			if !ok {
				t.Fatal("no chip of another step on screen")
			}
			if d.selected != hit.Step || d.following {
				t.Fatalf("a click on the chip of step %d selected %d (following %v)", hit.Step, d.selected, d.following)
			}
			at := d.selected
			if _, ok := clickSpan(d.App, computer.TimelineControls, computer.HitPrev, -1); !ok || d.selected != d.shownBy(at, -1) {
				t.Errorf("prev from %d: clicked %v, selected %d", at, ok, d.selected)
			}
			at = d.selected
			if _, ok := clickSpan(d.App, computer.TimelineControls, computer.HitNext, -1); !ok || d.selected != d.shownBy(at, 1) {
				t.Errorf("next from %d: clicked %v, selected %d", at, ok, d.selected)
			}
			if _, ok := clickSpan(d.App, computer.TimelineControls, computer.HitPlay, -1); !ok || !d.playing {
				t.Errorf("play: clicked %v, playing %v", ok, d.playing)
			}
			if _, ok := clickSpan(d.App, computer.TimelineControls, computer.HitPlay, -1); !ok || d.playing {
				t.Errorf("pause: clicked %v, playing %v", ok, d.playing)
			}
			if _, ok := clickSpan(d.App, computer.TimelineControls, computer.HitLive, -1); !ok || !d.following || d.selected != last {
				t.Errorf("back to live: clicked %v, following %v, selected %d of %d", ok, d.following, d.selected, last)
			}
			if c.name == "short sheet" {
				return // no header, no transcript rows to speak of
			}
			d.press("left", "left")
			if d.following || d.geo.liveMark.empty() {
				t.Fatalf("left left: following %v, live mark %+v", d.following, d.geo.liveMark)
			}
			x, y := d.geo.liveMark.centre()
			d.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
			if !d.following || d.selected != last {
				t.Errorf("a click on the header's mark: following %v, selected %d of %d", d.following, d.selected, last)
			}
			// The wheel over the transcript scrolls it back to a row of
			// another step.
			for range 20 {
				g := d.geo.transcript
				x, y := g.centre()
				if row, step, ok := transcriptStepRow(d); ok {
					d.Update(tea.MouseClickMsg{X: x, Y: g.y + row, Button: tea.MouseLeft})
					if d.selected != step || d.focus != focusTranscript {
						t.Errorf("a click on the row of step %d selected %d (focus %v)", step, d.selected, d.focus)
					}
					return
				}
				d.Update(tea.MouseWheelMsg{X: x, Y: y, Button: tea.MouseWheelUp})
			}
			t.Error("no tool call row of another step in the transcript")
		})
	}
}

// transcriptStepRow finds a row of the transcript on screen that is a tool
// call of a step not selected.
func transcriptStepRow(d *demoApp) (row, step int, ok bool) {
	for row := 0; row < d.geo.transcript.h; row++ {
		seq, ok := d.transcript.ItemAt(row)
		if !ok {
			continue
		}
		if _, card := d.transcript.CardAt(row); card {
			continue
		}
		it := d.itemBySeq(seq)
		if it != nil && it.Kind == model.ItemToolCall && it.Step >= 0 && it.Step != d.selected {
			return row, it.Step, true
		}
	}
	return 0, 0, false
}
