package render

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// SplitWidth is the narrowest panel, in cells, for which DiffLines shows
// the old and new sides of a diff next to each other.
const SplitWidth = 120

const (
	// diffTabStop is narrower than a terminal's 8 because a diff shares the
	// panel with a gutter (and in split mode with the other side); delta
	// uses 4 by default for the same reason.
	diffTabStop = 4
	// maxDiffLineNumber bounds the numbers a hunk header may start from, so
	// a hostile header cannot overflow the counters or widen the gutter
	// past the panel.
	maxDiffLineNumber = 1 << 30
)

// diffRow is one line of the split view: a full-width line (headers and
// text outside hunks), or the old side left and the new side right, either
// of which may be empty.
type diffRow struct {
	full, left, right *diffLine
}

// DiffLines renders a unified diff (as git diff / diff -u print it) for a panel
// width×height: file headers (---/+++) bold, hunk headers (@@) cyan, removed lines
// red, added lines green, context plain, with old/new line numbers in a dim gutter.
// When width >= SplitWidth it shows old and new side by side (removed lines left,
// added right, paired in order within a change block, context on both sides).
// Lines are cut to the width (ansi-aware, "…"), every coloured line ends in "\x1b[0m",
// no more than height lines are returned (keep the first ones and end with a dim
// "… N more lines" line when cut); width/height < 1 gives nil. Text that is not a
// diff is shown plain.
//
// The diff comes from an agent, so it is made safe with Plain first; hunk
// line counts that do not match the body (common in diffs a model wrote)
// are tolerated.
func DiffLines(diff string, width, height int) []string {
	if width < 1 || height < 1 {
		return nil
	}
	lines, digits := parseDiff(sanitize.Plain(diff))
	if len(lines) == 0 {
		return nil
	}
	var rows []diffRow
	total := len(lines)
	split := width >= SplitWidth
	if split {
		rows = splitRows(lines)
		total = len(rows)
	}
	shown := total
	if total > height {
		shown = height - 1
	}
	out := make([]string, 0, min(total, height))
	for i := range shown {
		if split {
			out = append(out, renderSplitRow(rows[i], width, digits))
		} else {
			out = append(out, renderUnified(&lines[i], width, digits))
		}
	}
	if shown < total {
		more := "… " + strconv.Itoa(total-shown) + " more lines"
		out = append(out, styles.Faint+ansi.Truncate(more, width, "…")+styles.Reset)
	}
	return out
}

// splitRows pairs the lines for the split view: within each run of removed
// and added lines the i-th removed line goes next to the i-th added one.
func splitRows(lines []diffLine) []diffRow {
	rows := make([]diffRow, 0, len(lines))
	var dels, adds []*diffLine
	var last diffKind
	flush := func() {
		for i := range max(len(dels), len(adds)) {
			var r diffRow
			if i < len(dels) {
				r.left = dels[i]
			}
			if i < len(adds) {
				r.right = adds[i]
			}
			rows = append(rows, r)
		}
		dels, adds = dels[:0], adds[:0]
	}
	for i := range lines {
		l := &lines[i]
		switch l.kind {
		case diffRemoved:
			dels = append(dels, l)
		case diffAdded:
			adds = append(adds, l)
		case diffNote:
			// The note belongs to the line before it, on that line's side.
			switch last {
			case diffRemoved:
				dels = append(dels, l)
			case diffAdded:
				adds = append(adds, l)
			default:
				flush()
				rows = append(rows, diffRow{left: l, right: l})
			}
			continue // the note does not change which side comes last
		case diffContext:
			flush()
			rows = append(rows, diffRow{left: l, right: l})
		default:
			flush()
			rows = append(rows, diffRow{full: l})
		}
		last = l.kind
	}
	flush()
	return rows
}

// renderUnified draws one line of the unified view.
func renderUnified(l *diffLine, width, digits int) string {
	if l.kind < diffContext {
		return renderFull(l, width)
	}
	var b strings.Builder
	b.WriteString(styles.Faint)
	writeNumber(&b, l.old, digits)
	b.WriteByte(' ')
	writeNumber(&b, l.new, digits)
	b.WriteString(styles.Reset)
	b.WriteByte(' ')
	cells := ASCIICells(writeBody(&b, l), 2*digits+2)
	return Fit(b.String(), cells, width) + styles.Reset
}

// renderFull draws a line that spans the panel: headers and plain text.
func renderFull(l *diffLine, width int) string {
	text := ExpandDiffTabs(l.text)
	colour := ""
	switch l.kind {
	case diffFile:
		colour = styles.Bold
	case diffMeta:
		colour = styles.Faint
	case diffHunk:
		colour = styles.CyanFg
	}
	text = Fit(text, ASCIICells(text, 0), width)
	if colour == "" {
		return text
	}
	return colour + text + styles.Reset
}

// renderSplitRow draws one row of the split view: the old side in the left
// half, a dim bar with a space either side, the new side in the right half.
func renderSplitRow(r diffRow, width, digits int) string {
	if r.full != nil {
		return renderFull(r.full, width)
	}
	leftW := (width - 3) / 2
	rightW := width - 3 - leftW
	left := renderSide(r.left, true, leftW, digits)
	if pad := leftW - ansi.StringWidth(left); pad > 0 {
		left += strings.Repeat(" ", pad)
	}
	row := left + " " + styles.Faint + "│" + styles.Reset
	if r.right == nil {
		return row
	}
	return row + " " + renderSide(r.right, false, rightW, digits)
}

// renderSide draws one side of a split row, numbered with the old line
// number on the old (left) side and the new one on the right; nil is an
// empty side.
func renderSide(l *diffLine, oldSide bool, width, digits int) string {
	if l == nil {
		return ""
	}
	n := l.new
	if oldSide {
		n = l.old
	}
	var b strings.Builder
	b.WriteString(styles.Faint)
	writeNumber(&b, n, digits)
	b.WriteString(styles.Reset)
	b.WriteByte(' ')
	cells := ASCIICells(writeBody(&b, l), digits+1)
	return Fit(b.String(), cells, width) + styles.Reset
}

// writeBody writes a hunk line's marker and text in its colour, and
// returns what it wrote without the colour.
func writeBody(b *strings.Builder, l *diffLine) string {
	switch l.kind {
	case diffRemoved:
		b.WriteString(styles.RedFg + "-")
	case diffAdded:
		b.WriteString(styles.GreenFg + "+")
	case diffNote:
		b.WriteString(styles.Faint)
	default:
		b.WriteByte(' ')
	}
	text := ExpandDiffTabs(l.text)
	b.WriteString(text)
	if l.kind == diffNote {
		return text
	}
	return " " + text // the marker is one cell like a space
}

// ASCIICells returns the cells text takes after a gutter of gutter cells,
// or -1 when text is not ASCII and only ansi can tell.
func ASCIICells(text string, gutter int) int {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return -1
		}
	}
	return gutter + len(text)
}

// Fit cuts line to width cells with "…", unless cells (-1 for unknown)
// says it fits already. ansi.Truncate measures every grapheme even when
// nothing is cut, so it is skipped for ASCII lines that fit
// (BenchmarkDiffLines).
func Fit(line string, cells, width int) string {
	if cells >= 0 && cells <= width {
		return line
	}
	return ansi.Truncate(line, width, "…")
}

// writeNumber writes n right-aligned in digits cells, or blanks for 0.
func writeNumber(b *strings.Builder, n, digits int) {
	s := ""
	if n > 0 {
		s = strconv.Itoa(n)
	}
	for range digits - len(s) {
		b.WriteByte(' ')
	}
	b.WriteString(s)
}
