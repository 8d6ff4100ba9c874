package tui

// This file holds the canvas the layout draws on: each part puts its lines
// into its rectangle, fitted to exactly that rectangle, and the canvas
// joins them into the screen's lines.

import (
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/tui/render"
)

// canvas collects what the parts of the screen drew, row by row. It is
// kept between frames so that a frame reuses its rows.
type canvas struct {
	rows [][]canvasPiece
}

// canvasPiece is a part's line in one row, starting at column x.
type canvasPiece struct {
	x    int
	line string
}

// reset empties the canvas for a screen of h rows.
func (c *canvas) reset(h int) {
	if cap(c.rows) < h {
		c.rows = make([][]canvasPiece, h)
	}
	c.rows = c.rows[:h]
	for i := range c.rows {
		c.rows[i] = c.rows[i][:0]
	}
}

// put draws lines into r: line i on r's row i, padded or cut to r.w cells;
// rows with no line are blank and lines beyond r.h are not drawn.
func (c *canvas) put(r rect, lines []string) {
	if r.empty() {
		return
	}
	for i := range r.h {
		if i < len(lines) {
			c.putRow(r.x, r.y+i, r.w, lines[i])
		} else {
			c.putRow(r.x, r.y+i, r.w, strings.Repeat(" ", r.w))
		}
	}
}

// putLine draws line into r, a rectangle of one row.
func (c *canvas) putLine(r rect, line string) {
	if !r.empty() {
		c.putRow(r.x, r.y, r.w, line)
	}
}

// fill draws line on every row of r.
func (c *canvas) fill(r rect, line string) {
	for y := r.y; y < r.bottom() && !r.empty(); y++ {
		c.putRow(r.x, y, r.w, line)
	}
}

// putRow draws line at (x, y), padded or cut to w cells.
func (c *canvas) putRow(x, y, w int, line string) {
	if y >= 0 && y < len(c.rows) {
		c.rows[y] = append(c.rows[y], canvasPiece{x, render.Pad(line, w)})
	}
}

// lines appends the canvas's rows to out, each row's pieces joined left
// to right.
func (c *canvas) lines(out []string) []string {
	for _, row := range c.rows {
		switch len(row) {
		case 0:
			out = append(out, "")
		case 1:
			out = append(out, row[0].line)
		default:
			slices.SortStableFunc(row, func(a, b canvasPiece) int { return a.x - b.x })
			n := 0
			for _, p := range row {
				n += len(p.line)
			}
			var b strings.Builder
			b.Grow(n)
			for _, p := range row {
				b.WriteString(p.line)
			}
			out = append(out, b.String())
		}
	}
	return out
}

// lastLines is the last n of lines: a part cut short from the top shows
// its end.
func lastLines(lines []string, n int) []string {
	return lines[len(lines)-max(0, min(n, len(lines))):]
}
