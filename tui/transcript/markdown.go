package transcript

// This file turns message text into rows: glamour's markdown, made safe
// and without the padding glamour adds.

import (
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// markdownRenderer keeps one glamour renderer per wrap width: building one
// parses the style, so it is done once per width, not per message.
type markdownRenderer struct {
	byWidth map[int]*glamour.TermRenderer
	light   bool // the terminal's background is light
}

// render draws markdown in the screen's style (styles.Markdown: ANSI
// colours, readable on a light background as on a dark one) wrapped to
// width cells, without the document's margins (the transcript has its own
// gutter). The text is sanitized before and after: glamour turns links
// into OSC 8 hyperlinks, which agent text must not emit.
func (m *markdownRenderer) render(src string, width int) string {
	width = max(width, 1)
	r := m.byWidth[width]
	if r == nil {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(styles.Markdown()), glamour.WithWordWrap(width))
		if err != nil {
			return ansi.Wrap(src, width, "")
		}
		if len(m.byWidth) >= 8 {
			m.byWidth = nil // widths change rarely; a resize drag leaves a few
		}
		if m.byWidth == nil {
			m.byWidth = map[int]*glamour.TermRenderer{}
		}
		m.byWidth[width] = r
	}
	out, err := r.Render(src)
	if err != nil {
		return ansi.Wrap(src, width, "")
	}
	return out
}

// splitMarkdown splits rendered markdown into lines made safe (SGR only),
// without the padding glamour adds, and without blank lines at the ends.
func splitMarkdown(s string) []string {
	s = sanitize.SafeSGR(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = trimPadding(l)
	}
	for len(lines) > 0 && isBlank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func isBlank(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }

// trimPadding drops the spaces glamour pads each line with to the wrap
// width (each in its own colour span, so a line would be several times
// longer): the line is cut, through x/ansi, after its last visible
// character. The markdown style draws no backgrounds, so trailing spaces
// show nothing.
func trimPadding(l string) string {
	plain := ansi.Strip(l)
	text := strings.TrimRight(plain, " ")
	if len(text) == len(plain) {
		return l
	}
	return ansi.Truncate(l, ansi.StringWidth(text), "")
}
