package render

// This file holds the line writers every view draws with: a line of known
// width built from plain pieces in colours, padding and cutting.

import (
	"strings"

	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// Pad makes line exactly width cells: spaces added, or cut with "…"
// (a guard: the views already Fit their lines).
func Pad(line string, width int) string {
	n := Cells(line)
	if n > width {
		line = ansi.Truncate(line, width, "…")
		if strings.IndexByte(line, 0x1b) >= 0 {
			line += styles.Reset
		}
		n = Cells(line)
	}
	if n < width {
		line += strings.Repeat(" ", width-n)
	}
	return line
}

// Styled is plain one-line text in colour sgr ("" for none), cut to width
// cells with "…".
func Styled(text, sgr string, width int) string {
	text = Fit(text, ASCIICells(text, 0), width)
	if sgr == "" || text == "" {
		return text
	}
	return sgr + text + styles.Reset
}

// Line builds one line of known width from plain pieces, each in an
// SGR colour closed with a reset, and pads it with spaces to exactly width
// cells. It never writes past width. Pieces are plain text, so cutting one
// can never cut a colour sequence in half.
type Line struct {
	b     strings.Builder
	width int
	col   int
	sgr   string
}

// NewLine returns a writer of one line width cells wide.
func NewLine(width int) *Line {
	return &Line{width: max(width, 0)}
}

// Room is how many cells are left on the line.
func (w *Line) Room() int { return w.width - w.col }

// Put writes the plain text s in colour sgr, cut (without a tail) at the edge.
func (w *Line) Put(s, sgr string) {
	w.Cut(s, w.Room(), sgr)
}

// Cut writes the plain text s in colour sgr, cut to at most cells cells
// with "…" when it is longer.
func (w *Line) Cut(s string, cells int, sgr string) {
	cells = min(cells, w.Room())
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

// Raw writes s, already coloured and closed, which is cells wide.
func (w *Line) Raw(s string, cells int) {
	if cells <= 0 || cells > w.Room() {
		return
	}
	w.setSGR("")
	w.b.WriteString(s)
	w.col += cells
}

// Spaces writes n blanks, uncoloured.
func (w *Line) Spaces(n int) { w.Repeat(" ", n) }

// Repeat writes n copies of the one-cell glyph g, uncoloured.
func (w *Line) Repeat(g string, n int) {
	n = min(n, w.Room())
	if n <= 0 {
		return
	}
	w.setSGR("")
	w.b.WriteString(strings.Repeat(g, n))
	w.col += n
}

func (w *Line) setSGR(sgr string) {
	if sgr == w.sgr {
		return
	}
	if w.sgr != "" {
		w.b.WriteString(styles.Reset)
	}
	if sgr != "" {
		w.b.WriteString("\x1b[" + sgr + "m")
	}
	w.sgr = sgr
}

// String returns the line padded with spaces to width cells, any colour closed.
func (w *Line) String() string {
	w.Spaces(w.Room())
	w.setSGR("")
	return w.b.String()
}

// Highlight draws line over the SGR parameters sgr (a background, reverse
// video): the line's own colours stay, and every reset inside it starts
// sgr again, so the whole width carries it.
func Highlight(line, sgr string) string {
	on := "\x1b[" + sgr + "m"
	var b strings.Builder
	b.Grow(len(line) + 32)
	b.WriteString(on)
	var state byte
	for len(line) > 0 {
		seq, _, n, next := ansi.DecodeSequence(line, state, nil)
		state = next
		b.WriteString(seq)
		if seq == styles.Reset || seq == "\x1b[m" {
			b.WriteString(on)
		}
		line = line[n:]
	}
	b.WriteString(styles.Reset)
	return b.String()
}

// MarkSpans draws the spans of line's text in the SGR sequence on: spans
// are byte offsets [start, end) into ansi.Strip(line), in order, such as a
// search's matches. The rest of the line keeps its colours and its width.
func MarkSpans(line string, spans [][2]int, on string) string {
	if len(spans) == 0 {
		return line
	}
	plain := ansi.Strip(line)
	var b strings.Builder
	b.Grow(len(line) + len(spans)*16)
	col, prev := 0, 0
	for _, sp := range spans {
		start, end := max(sp[0], prev), min(sp[1], len(plain))
		if start >= end {
			continue
		}
		from := col + ansi.StringWidth(plain[prev:start])
		to := from + ansi.StringWidth(plain[start:end])
		b.WriteString(ansi.Cut(line, col, from))
		b.WriteString(styles.Reset + on + plain[start:end] + styles.Reset)
		col, prev = to, end
	}
	b.WriteString(ansi.Cut(line, col, ansi.StringWidth(line)))
	return b.String()
}
