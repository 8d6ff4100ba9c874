package computer

// The three lines of the timeline: slider, chips and controls, drawn cell
// by cell with the hits a click on each cell means.

import (
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// Slider ticks, in the order one wins a cell shared by several steps.
const (
	tickNone = iota
	tickCancelled
	tickDone
	tickActive
	tickSomeFailed
	tickFailed
	tickCurrent
)

func tickOf(s *model.Step) uint8 {
	switch timelineStatus(s) {
	case model.StatusCompleted:
		return tickDone
	case model.StatusFailed:
		return tickFailed
	case model.StatusCancelled, model.StatusInterrupted, "": // "": a step no longer known
		return tickCancelled
	}
	return tickActive
}

var tickFaces = [...]struct{ glyph, sgr string }{
	tickNone:       {"─", ""},
	tickCancelled:  {"●", styles.ParamDim},
	tickDone:       {"●", styles.ParamGreen},
	tickActive:     {"○", styles.ParamYellow},
	tickSomeFailed: {"×", styles.ParamRed},
	tickFailed:     {"✗", styles.ParamRed},
	tickCurrent:    {"◉", ""}, // coloured by the current step's status, bold
}

// sliderLine draws "├──●──●──◉────┤". The track has t cells; step i sits in
// the cell nearest the middle of its share of the track, floor((2i+1)t/2n),
// and track cell c seeks to the step whose share holds the cell's middle,
// floor((2c+1)n/2t). While n ≤ t those two agree, so clicking a tick selects
// that very step.
func sliderLine(steps []*model.Step, cur, width int, hits []Hit) string {
	w := newTimelineWriter(width, hits)
	n := len(steps)
	caps := width >= 3
	t := width
	if caps {
		t = width - 2
	}
	if n == 0 {
		if caps {
			w.Put("├", 1, styles.ParamDim, noHit)
		}
		w.Repeat("─", t, styles.ParamDim, noHit)
		if caps {
			w.Put("┤", 1, styles.ParamDim, noHit)
		}
		return w.String()
	}
	ticks := make([]uint8, t)
	// A cell that stands for several steps shows their share honestly:
	// failed (✗) when at least half of them failed, × when at least a
	// tenth did, else the most telling of the others — so a few failures
	// among thousands of steps do not paint the whole slider red.
	var count, failed []int32
	if n > t {
		count, failed = make([]int32, t), make([]int32, t)
	}
	// c = floor((2i+1)t / 2n), kept by stepping a numerator rather than
	// dividing for each of possibly many thousand steps.
	num, den := int64(t), int64(2*n)
	c := int(num / den)
	next := int64(c+1) * den
	for i, st := range steps {
		for num >= next {
			c++
			next += den
		}
		num += int64(2 * t)
		k := tickOf(st)
		if count != nil {
			count[c]++
			if k == tickFailed {
				failed[c]++
				k = tickNone
			}
		}
		if i == cur {
			k = tickCurrent
		}
		if k > ticks[c] {
			ticks[c] = k
		}
	}
	for c := range count {
		switch f := failed[c]; {
		case ticks[c] == tickCurrent || f == 0:
		case 2*f >= count[c]:
			ticks[c] = tickFailed
		case 10*f >= count[c]:
			ticks[c] = tickSomeFailed
		}
	}
	if caps {
		w.Put("├", 1, "", Hit{HitTick, 0})
	}
	for c := 0; c < t; {
		// A run of bare track is one write: the common case with few steps.
		if ticks[c] == tickNone {
			e := c
			for e < t && ticks[e] == tickNone {
				e++
			}
			for ; c < e; c++ {
				w.Put("─", 1, "", Hit{HitTick, trackStep(c, t, n)})
			}
			continue
		}
		f := tickFaces[ticks[c]]
		sgr := f.sgr
		if ticks[c] == tickCurrent {
			// Bold and faint cancel out in most terminals: a cancelled
			// current step is just bold.
			sgr = styles.ParamBold
			if st := timelineStatus(steps[cur]); st != model.StatusCancelled && st != model.StatusInterrupted {
				sgr += ";" + timelineSGR(st)
			}
		}
		w.Put(f.glyph, 1, sgr, Hit{HitTick, trackStep(c, t, n)})
		c++
	}
	if caps {
		w.Put("┤", 1, "", Hit{HitTick, n - 1})
	}
	return w.String()
}

func trackStep(c, t, n int) int {
	i := int((int64(2*c+1) * int64(n)) / int64(2*t))
	return max(0, min(i, n-1))
}

// chipLine draws one chip per visible step: " ▤ read ⌕ find [❯ exec] ".
// Chips are separated by one cell, and the current chip's brackets take the
// separators either side of it, so selecting a step never moves the chips.
// When not all chips render.Fit, the first and last cells are ‹ and › markers for
// hidden chips, and the visible run is the widest one around the current
// chip, growing alternately right and left: centred in the middle of a
// long run, flush at its ends.
func chipLine(steps []*model.Step, cur, width int, hits []Hit) string {
	w := newTimelineWriter(width, hits)
	n := len(steps)
	if n == 0 {
		return w.String()
	}
	chipWidth := func(i int) int { _, cells := render.Chip(timelineCategory(steps[i])); return cells }
	a, b, ok := chipWindow(n, cur, width, chipWidth)
	iconsOnly := false
	if !ok || a > 0 || b < n-1 {
		if a, b, ok = chipWindow(n, cur, width-2, chipWidth); !ok {
			// Too narrow for words: icons alone.
			iconsOnly = true
			chipWidth = func(int) int { return 1 }
			a, b, _ = chipWindow(n, cur, width, chipWidth)
			if a > 0 || b < n-1 {
				a, b, _ = chipWindow(n, cur, width-2, chipWidth)
			}
		}
	}
	markers := a > 0 || b < n-1
	if markers {
		if a > 0 {
			w.Put("‹", 1, styles.ParamDim, Hit{HitChip, a - 1})
		} else {
			w.Put(" ", 1, "", noHit)
		}
	}
	curSGR := timelineSGR(timelineStatus(steps[cur]))
	sep := func(i int) { // the separator left of chip i (i == b+1 for the last)
		switch {
		case i == cur:
			w.Put("[", 1, curSGR, Hit{HitChip, cur})
		case i-1 == cur:
			w.Put("]", 1, curSGR, Hit{HitChip, cur})
		default:
			w.Put(" ", 1, "", noHit)
		}
	}
	for i := a; i <= b; i++ {
		sep(i)
		text, cells := render.Chip(timelineCategory(steps[i]))
		if iconsOnly {
			text, cells = render.CategoryIcon(timelineCategory(steps[i])), 1
		}
		sgr := timelineSGR(timelineStatus(steps[i]))
		if i == cur {
			sgr += ";7"
		}
		w.Put(text, cells, sgr, Hit{HitChip, i})
	}
	sep(b + 1)
	if markers && b < n-1 {
		w.padTo(width - 1)
		w.Put("›", 1, styles.ParamDim, Hit{HitChip, b + 1})
	}
	return w.String()
}

// chipWindow returns the run of chips a..b around cur that fits in budget
// cells (each chip plus one separator, and one closing separator), and false
// when even the current chip alone does not render.Fit. It looks only at chips it
// shows, and at most one more on each side.
func chipWindow(n, cur, budget int, chipWidth func(int) int) (a, b int, ok bool) {
	used := 1 + chipWidth(cur) + 1
	if used > budget {
		return cur, cur, false
	}
	a, b = cur, cur
	for grew := true; grew; {
		grew = false
		if b+1 < n {
			if c := chipWidth(b+1) + 1; used+c <= budget {
				used += c
				b++
				grew = true
			}
		}
		if a > 0 {
			if c := chipWidth(a-1) + 1; used+c <= budget {
				used += c
				a--
				grew = true
			}
		}
	}
	return a, b, true
}

// controlPart is one button or label of the controls row.
type controlPart struct {
	text string
	sgr  string
	hit  Hit
}

// controlLine draws "◀ prev   ▶ play   next ▶" and, flush right, "● LIVE",
// "◌ watching" or "⏭ Back to live", using the widest form that fits: narrower gaps first,
// then "⏭ live", then "◀ play ▶". Buttons that would do nothing are dim but
// still report their hit; the screen decides.
func controlLine(s TimelineState, cur, width int, hits []Hit) string {
	w := newTimelineWriter(width, hits)
	n := len(s.Steps)
	btn := func(kind HitKind) Hit { return Hit{kind, -1} }
	dimUnless := func(enabled bool) string {
		if enabled {
			return ""
		}
		return styles.ParamDim
	}
	prevSGR, nextSGR, playSGR := dimUnless(cur > 0), dimUnless(cur >= 0 && cur < n-1), dimUnless(n > 0)
	play, playWord := "▶ play", "play"
	if s.Playing {
		play, playWord = "❚❚ pause", "pause"
	}
	prev := controlPart{"◀ prev", prevSGR, btn(HitPrev)}
	next := controlPart{"next ▶", nextSGR, btn(HitNext)}
	playPart := controlPart{play, playSGR, btn(HitPlay)}
	live := controlPart{"● LIVE", styles.ParamLive, btn(HitLive)}
	liveShort := live
	switch {
	case s.Watching:
		live = controlPart{"◌ watching", styles.ParamDim, btn(HitLive)}
		liveShort = controlPart{"◌", styles.ParamDim, btn(HitLive)}
	case !s.Live:
		live = controlPart{"⏭ Back to live", styles.ParamAttention, btn(HitLive)}
		liveShort = controlPart{"⏭ live", styles.ParamAttention, btn(HitLive)}
	}
	gap := func(k int) controlPart { return controlPart{strings.Repeat(" ", k), "", noHit} }
	compact := []controlPart{
		{"◀", prevSGR, prev.hit}, gap(1), {playWord, playSGR, playPart.hit}, gap(1), {"▶", nextSGR, next.hit},
	}
	forms := []struct {
		left  []controlPart
		right controlPart
	}{
		{[]controlPart{prev, gap(3), playPart, gap(3), next}, live},
		{[]controlPart{prev, gap(2), playPart, gap(2), next}, live},
		{[]controlPart{prev, gap(1), playPart, gap(1), next}, live},
		{[]controlPart{prev, gap(1), playPart, gap(1), next}, liveShort},
		{compact, liveShort},
		{compact, controlPart{}},
	}
	const minGap = 2
	pick := len(forms) - 1
	for i, f := range forms {
		total := f.right.width()
		for _, p := range f.left {
			total += p.width()
		}
		if f.right.text != "" {
			total += minGap
		}
		if total <= width {
			pick = i
			break
		}
	}
	f := forms[pick]
	for _, p := range f.left {
		w.Put(p.text, p.width(), p.sgr, p.hit)
	}
	if f.right.text != "" {
		w.padTo(width - f.right.width())
		w.Put(f.right.text, f.right.width(), f.right.sgr, f.right.hit)
	}
	return w.String()
}

// timelineWriter builds one line cell by cell, merging neighbouring cells of the
// same colour into one SGR span that ends with a reset, and records the hit
// of every cell. It never writes past width.
type timelineWriter struct {
	buf   []byte
	hits  []Hit
	width int
	col   int
	sgr   string // parameters of the open span, "" when none
}

func newTimelineWriter(width int, hits []Hit) *timelineWriter {
	return &timelineWriter{buf: make([]byte, 0, width*4), hits: hits, width: width}
}

// put writes s, which is cells wide, in the colour sgr ("" for none).
func (w *timelineWriter) Put(s string, cells int, sgr string, h Hit) {
	room := w.width - w.col
	if room <= 0 || cells <= 0 {
		return
	}
	if cells > room {
		s = ansi.Truncate(s, room, "")
		cells = ansi.StringWidth(s)
	}
	if sgr != w.sgr {
		if w.sgr != "" {
			w.buf = append(w.buf, styles.Reset...)
		}
		if sgr != "" {
			w.buf = append(w.buf, "\x1b["...)
			w.buf = append(w.buf, sgr...)
			w.buf = append(w.buf, 'm')
		}
		w.sgr = sgr
	}
	w.buf = append(w.buf, s...)
	for i := w.col; i < w.col+cells; i++ {
		w.hits[i] = h
	}
	w.col += cells
}

// repeat writes cells copies of the one-cell glyph g.
func (w *timelineWriter) Repeat(g string, cells int, sgr string, h Hit) {
	cells = min(cells, w.width-w.col)
	if cells <= 0 {
		return
	}
	w.Put(strings.Repeat(g, cells), cells, sgr, h)
}

// padTo fills with blanks up to column col.
func (w *timelineWriter) padTo(col int) { w.Repeat(" ", col-w.col, "", noHit) }

// String pads the line to its width and closes the open span.
func (w *timelineWriter) String() string {
	w.padTo(w.width)
	if w.sgr != "" {
		w.buf = append(w.buf, styles.Reset...)
		w.sgr = ""
	}
	return string(w.buf)
}

func (p controlPart) width() int { return ansi.StringWidth(p.text) }
