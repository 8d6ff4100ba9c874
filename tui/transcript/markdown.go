package transcript

// This file turns message text into rows: glamour's markdown, made safe
// and without the padding glamour adds.

import (
	"strings"

	"charm.land/glamour/v2"
	glamourstyles "charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/sanitize"
)

// markdownRenderer keeps one glamour renderer per wrap width: building one
// parses the style, so it is done once per width, not per message.
type markdownRenderer struct {
	byWidth map[int]*glamour.TermRenderer
	light   bool // glamour's light style, for light terminal backgrounds
}

// render draws markdown in glamour's dark (or light) style wrapped to width cells,
// without the document's margins (the transcript has its own gutter).
// The text is sanitized before and after: glamour turns links into OSC 8
// hyperlinks, which agent text must not emit.
func (m *markdownRenderer) render(src string, width int) string {
	width = max(width, 1)
	r := m.byWidth[width]
	if r == nil {
		st := glamourstyles.DarkStyleConfig
		if m.light {
			st = glamourstyles.LightStyleConfig
		}
		var zero uint
		st.Document.Margin = &zero
		st.Document.BlockPrefix, st.Document.BlockSuffix = "", ""
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(st), glamour.WithWordWrap(width))
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

// trimPadding drops the invisible tail glamour pads each line with: spaces
// in a foreground-only colour, and colour changes with nothing after them.
// It keeps a heading's coloured background. Each padding space comes with
// its own SGR pair, so without this a line is several times longer.
func trimPadding(l string) string {
	for {
		switch {
		case strings.HasSuffix(l, " "):
			if i := strings.LastIndex(l, "\x1b["); i >= 0 {
				if j := strings.IndexByte(l[i:], 'm'); j < 0 || !invisibleSpaces(l[i:i+j+1]) {
					return l
				}
			}
			l = l[:len(l)-1]
		case strings.HasSuffix(l, "m"):
			i := strings.LastIndex(l, "\x1b[")
			if i < 0 || strings.ContainsAny(l[i+2:len(l)-1], "m\x1b") {
				return l
			}
			l = l[:i]
		default:
			return l
		}
	}
}

// invisibleSpaces reports whether spaces drawn after the SGR sequence seq
// show nothing: no background, underline, reverse or strike-through.
func invisibleSpaces(seq string) bool {
	params := strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b["), "m")
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == "38":
			// 38;5;n or 38;2;r;g;b: skip the colour's arguments.
			if i+1 < len(ps) && ps[i+1] == "5" {
				i += 2
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				i += 4
			}
		case p == "4", p == "7", p == "9", p == "48", p == "53",
			len(p) == 2 && p[0] == '4' && p[1] != '9',
			len(p) == 3 && p[0] == '1' && p[1] == '0':
			return false
		}
	}
	return true
}
