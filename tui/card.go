package tui

// This file draws a reply's steps as the transcript shows them:
// one row per tool call, and the computer card that sums up what the
// agent did on its computer — the latest screenshot or the current step's
// icon, the current operation, the step count and a live mark. Both are pure:
// the transcript caches what they return per (item, width, version).

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

// Thumbnail size of the computer card, in cells.
const (
	cardThumbCols = 12
	cardThumbRows = 4
)

// CardCompactWidth is the narrowest width at which ComputerCard draws the
// full six-line card; below it the card is three lines without a thumbnail.
const CardCompactWidth = 24

// CardState is what a computer card shows for one reply: its steps, the one
// the card is about (usually the newest), and whether the reply still streams.
type CardState struct {
	Steps   []*model.Step
	Current int
	Live    bool
}

// ComputerCard draws the card: a rounded box (╭─ computer ─╮ …) width cells wide;
// left a thumbnail of the latest screenshot among Steps[:Current+1] (HalfBlock at
// 12×4 cells) or, without one, the current step's category icon in a 12×4 area;
// right the current operation (the current step's Label, Plain, cut), below it
// "N steps" and "● LIVE" (green) while Live; 6 lines high. width < 24 gives a
// compact 3-line card without thumbnail.
//
// The full card's third content line is the current step's status with its
// exit code and duration ("✗ failed · exit 2 · 1.2s"). The compact card puts
// the operation on its middle line and the count and live mark in its bottom
// border, shortened ("7 ●") as the width requires. Every line is exactly
// width cells; a width below 2 has no room for a box and gives blank lines,
// and a width below 1 gives nil. Current is clamped to the steps.
//
// The screenshot is decoded on every call, so the caller caches the lines
// per reply, version and width, as every transcript row is cached.
func ComputerCard(c CardState, width int) []string {
	if width <= 0 {
		return nil
	}
	n := len(c.Steps)
	cur := max(0, min(c.Current, n-1))
	var step *model.Step
	if n > 0 {
		step = c.Steps[cur]
	}
	if width < 2 {
		return []string{" ", " ", " "}
	}
	if width < CardCompactWidth {
		return compactCard(step, n, c.Live, width)
	}

	inner := width - 2
	// │ thumb(12) ␣␣ text ␣│
	textW := inner - 1 - cardThumbCols - 2 - 1
	thumb := cardThumbnail(c.Steps, cur)

	lines := make([]string, 0, 2+cardThumbRows)
	lines = append(lines, cardTop(width))
	for row := range cardThumbRows {
		w := newCardWriter(width)
		w.put("│ ", "")
		w.raw(thumb[row], cardThumbCols)
		w.spaces(2)
		sub := newCardWriter(textW)
		switch {
		case row == 0 && step != nil:
			sub.cut(stepLabel(step), textW, "1")
		case row == 1:
			sub.put(stepCount(n), "")
			if c.Live {
				sub.put(" · ", tlDim)
				sub.put("● LIVE", tlGreen)
			}
		case row == 2 && step != nil:
			glyph, sgr := stepGlyph(step.Status)
			sub.put(glyph+" "+stepStatusWord(step.Status), sgr)
			exit, dur := stepResult(step)
			if exit != "" || dur != "" {
				sub.put(" · ", tlDim)
				sub.writeResult(exit, dur)
			}
		}
		w.raw(sub.String(), textW)
		w.put(" │", "")
		lines = append(lines, w.String())
	}
	lines = append(lines, cardBottom(width))
	return lines
}

func stepCount(n int) string {
	if n == 1 {
		return "1 step"
	}
	return strconv.Itoa(n) + " steps"
}

// cardTop is "╭─ computer ───╮", or a bare edge when the title does not fit.
func cardTop(width int) string {
	const title = "─ computer "
	w := newCardWriter(width)
	w.put("╭", "")
	if width-2 >= ansi.StringWidth(title)+1 { // the title and at least one "─" after it
		w.put(title, "")
	}
	w.repeat("─", w.room()-1)
	w.put("╮", "")
	return w.String()
}

// cardBottom is the bare bottom edge "╰───╯".
func cardBottom(width int) string {
	w := newCardWriter(width)
	w.put("╰", "")
	w.repeat("─", w.room()-1)
	w.put("╯", "")
	return w.String()
}

// compactCard is the three-line card for narrow widths: the box, the icon
// and operation inside it, and the step count and live mark in the bottom
// border, as much of them as fits.
func compactCard(step *model.Step, n int, live bool, width int) []string {
	inner := width - 2
	mid := newCardWriter(width)
	mid.put("│", "")
	body := newCardWriter(inner)
	pad := 0 // a space inside each side of the box, when there is room
	if inner >= 5 {
		pad = 1
	}
	body.spaces(pad)
	if step != nil {
		body.put(CategoryIcon(step.Category)+" ", "")
		body.cut(stepLabel(step), body.room()-pad, "1")
	}
	mid.raw(body.String(), inner)
	mid.put("│", "")

	// The longest of these that fits in the bottom border, with "╰─ " and " ─╯".
	type meta struct{ count, live string }
	count := strconv.Itoa(n)
	candidates := []meta{{stepCount(n), "● LIVE"}, {count, "● LIVE"}, {count, "●"}, {count, ""}}
	if !live {
		candidates = []meta{{stepCount(n), ""}, {count, ""}}
	}
	bottom := newCardWriter(width)
	bottom.put("╰", "")
	for _, m := range candidates {
		cells := len(m.count)
		if m.live != "" {
			cells += 1 + ansi.StringWidth(m.live)
		}
		if inner >= cells+4 { // "─ " before, " ─" after
			bottom.put("─ ", "")
			bottom.put(m.count, "")
			if m.live != "" {
				bottom.put(" ", "")
				bottom.put(m.live, tlGreen)
			}
			bottom.put(" ", "")
			break
		}
	}
	bottom.repeat("─", bottom.room()-1)
	bottom.put("╯", "")
	return []string{cardTop(width), mid.String(), bottom.String()}
}

// cardThumbnail returns the card's 12×4 left area: the latest screenshot of
// steps[:cur+1] that decodes, drawn in half blocks, or else the current
// step's category icon and short name centred in blank cells.
func cardThumbnail(steps []*model.Step, cur int) []string {
	for i := min(cur, len(steps)-1); i >= 0; i-- {
		s := steps[i]
		if s == nil {
			continue
		}
		for j := len(s.Screenshots) - 1; j >= 0; j-- {
			shot := s.Screenshots[j]
			if len(shot.Data) == 0 || shot.Truncated {
				continue
			}
			img, err := DecodeImage(shot.Data)
			if err != nil {
				continue // a broken picture should not hide an older good one
			}
			if lines := HalfBlock(img, cardThumbCols, cardThumbRows); len(lines) == cardThumbRows {
				return lines
			}
		}
	}
	blank := strings.Repeat(" ", cardThumbCols)
	lines := []string{blank, blank, blank, blank}
	c, status := model.CategoryOther, model.StatusPending
	if cur >= 0 && cur < len(steps) && steps[cur] != nil {
		c, status = steps[cur].Category, steps[cur].Status
	}
	_, sgr := stepGlyph(status)
	if status == model.StatusPending {
		sgr = ""
	}
	lines[1] = centred(CategoryIcon(c), sgr)
	lines[2] = centred(CategoryShort(c), tlDim)
	return lines
}

// centred is text (one line, ASCII or one-cell glyphs) in colour sgr,
// centred in the thumbnail's width.
func centred(text, sgr string) string {
	cells := ansi.StringWidth(text)
	left := (cardThumbCols - cells) / 2
	w := newCardWriter(cardThumbCols)
	w.spaces(left)
	w.put(text, sgr)
	return w.String()
}

// cardWriter builds one line of known width from plain pieces, each in an
// SGR colour closed with a reset, and pads it with spaces to exactly width
// cells. It never writes past width. Pieces are plain text, so cutting one
// can never cut a colour sequence in half.
type cardWriter struct {
	b     strings.Builder
	width int
	col   int
	sgr   string
}

func newCardWriter(width int) *cardWriter {
	return &cardWriter{width: max(width, 0)}
}

func (w *cardWriter) room() int { return w.width - w.col }

// put writes the plain text s in colour sgr, cut (without a tail) at the edge.
func (w *cardWriter) put(s, sgr string) {
	w.cut(s, w.room(), sgr)
}

// cut writes the plain text s in colour sgr, cut to at most cells cells
// with "…" when it is longer.
func (w *cardWriter) cut(s string, cells int, sgr string) {
	cells = min(cells, w.room())
	if cells <= 0 || s == "" {
		return
	}
	n := ansi.StringWidth(s)
	if n > cells {
		s = ansi.Truncate(s, cells, "…")
		n = ansi.StringWidth(s)
	}
	w.setSGR(sgr)
	w.b.WriteString(s)
	w.col += n
}

// raw writes s, already coloured and closed, which is cells wide.
func (w *cardWriter) raw(s string, cells int) {
	if cells <= 0 || cells > w.room() {
		return
	}
	w.setSGR("")
	w.b.WriteString(s)
	w.col += cells
}

func (w *cardWriter) spaces(n int) { w.repeat(" ", n) }

// repeat writes n copies of the one-cell glyph g, uncoloured.
func (w *cardWriter) repeat(g string, n int) {
	n = min(n, w.room())
	if n <= 0 {
		return
	}
	w.setSGR("")
	w.b.WriteString(strings.Repeat(g, n))
	w.col += n
}

func (w *cardWriter) setSGR(sgr string) {
	if sgr == w.sgr {
		return
	}
	if w.sgr != "" {
		w.b.WriteString(reset)
	}
	if sgr != "" {
		w.b.WriteString("\x1b[" + sgr + "m")
	}
	w.sgr = sgr
}

// String returns the line padded with spaces to width cells, any colour closed.
func (w *cardWriter) String() string {
	w.spaces(w.room())
	w.setSGR("")
	return w.b.String()
}
