package render

import (
	"strconv"

	"github.com/agentwatch/agentwatch/tui/styles"
)

// MoreLine is the dim last line that stands for n lines not shown.
func MoreLine(n, width int) string {
	return Styled("… "+strconv.Itoa(n)+" more lines", styles.Faint, width)
}

// LineBox collects at most limit lines and counts those that did not Fit;
// done turns the last line into "… N more lines" when any did not.
type LineBox struct {
	lines []string
	limit int
	more  int
	width int
}

// NewLineBox returns a box of at most limit lines of width cells.
func NewLineBox(width, limit int) *LineBox {
	return &LineBox{width: width, limit: max(limit, 0), lines: make([]string, 0, min(max(limit, 0), 64))}
}

// Skip counts n lines that were not added because the box is full.
func (b *LineBox) Skip(n int) { b.more += n }

// Full reports whether the box holds as many lines as it may.
func (b *LineBox) Full() bool { return len(b.lines) >= b.limit }

// Add adds a line, or counts it when the box is full.
func (b *LineBox) Add(line string) {
	if b.Full() {
		b.more++
		return
	}
	b.lines = append(b.lines, line)
}

// Done returns the lines, the last one turned into "… N more lines" when
// any did not fit.
func (b *LineBox) Done() []string {
	if b.more > 0 && len(b.lines) > 0 {
		b.lines[len(b.lines)-1] = MoreLine(b.more+1, b.width)
	}
	return b.lines
}
