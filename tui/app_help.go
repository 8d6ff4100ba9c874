package tui

// This file draws the help overlay and the footer from the key map of what
// is on screen (keys.go), with the bubbles help component: what the help
// lists is what the keys do.

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// helpModel is the bubbles help drawn in the palette's colours.
func helpModel(width int) help.Model {
	h := help.New()
	h.ShortSeparator = "  "
	h.Styles = help.Styles{
		ShortKey:       styles.HelpKey,
		ShortDesc:      styles.Hint,
		ShortSeparator: styles.Hint,
		Ellipsis:       styles.Hint,
		FullKey:        styles.HelpKey,
		FullDesc:       lipgloss.NewStyle(),
		FullSeparator:  styles.Hint,
	}
	h.SetWidth(width)
	return h
}

// footerLine is the footer: the key map's short help, a note about the
// last key first.
func (a *App) footerLine(w int) string {
	note := ""
	if a.note != "" {
		note = styles.Bold + ansi.Truncate(Plain(a.note), w, "…") + styles.Reset + "  "
	}
	room := w - ansi.StringWidth(note)
	hints := ""
	if room > 0 {
		hints = helpModel(room).ShortHelpView(a.keyMap().ShortHelp(a))
	}
	return render.Pad(note+hints, w)
}

// helpBlocks are the help's sections for key map km: a heading per
// group, its keys and notes, then the mouse, each block a list of lines.
func helpBlocks(km keyMap) [][]string {
	h := helpModel(0)
	var out [][]string
	section := func(title string, bs []key.Binding) {
		if len(bs) == 0 {
			return
		}
		var block []string
		if title != "" {
			block = append(block, styles.Bold+title+styles.Reset)
		}
		block = append(block, strings.Split(h.FullHelpView([][]key.Binding{bs}), "\n")...)
		out = append(out, block)
	}
	full := km.FullHelp()
	for i, g := range km.groups {
		bs := full[i]
		for _, n := range g.notes {
			bs = append(bs, helpLine(n))
		}
		section(g.title, bs)
	}
	var mouse []key.Binding
	for _, m := range km.mouse {
		mouse = append(mouse, helpLine(m))
	}
	section("Mouse", mouse)
	return out
}

// helpLine is a help line that is not a key (what is typed, the mouse).
// The help draws only bindings that have keys, so it gets one no key
// press can be: the line's own words.
func helpLine(l [2]string) key.Binding {
	return key.NewBinding(key.WithKeys("help line: "+l[0]), key.WithHelp(l[0], l[1]))
}

// helpBody lays the help's sections out in width×height cells: in columns
// side by side when they fit, else one under the other (and the help
// scrolls).
func helpBody(km keyMap, width, height int) []string {
	blocks := helpBlocks(km)
	var cols [][]string
	var cur []string
	for _, b := range blocks {
		need := len(b)
		if len(cur) > 0 {
			need++ // a blank line between sections
		}
		if len(cur) > 0 && len(cur)+need > height {
			cols, cur = append(cols, cur), nil
			need = len(b)
		}
		if len(cur) > 0 {
			cur = append(cur, "")
		}
		cur = append(cur, b...)
	}
	if len(cur) > 0 {
		cols = append(cols, cur)
	}
	const gap = 4
	total := -gap
	for _, c := range cols {
		total += gap + lipgloss.Width(strings.Join(c, "\n"))
	}
	if len(cols) > 1 && total <= width {
		parts := make([]string, 0, 2*len(cols))
		for i, c := range cols {
			if i > 0 {
				parts = append(parts, strings.Repeat(" ", gap))
			}
			parts = append(parts, strings.Join(c, "\n"))
		}
		return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, parts...), "\n")
	}
	var one []string
	for i, b := range blocks {
		if i > 0 {
			one = append(one, "")
		}
		one = append(one, b...)
	}
	return one
}

// overlayHelp draws the help of key map km over lines, each width cells,
// scrolled by scroll lines when it does not fit.
func overlayHelp(lines []string, width int, km keyMap, scroll int) {
	rows := len(lines) - 2
	body := helpBody(km, max(1, width-4), rows)
	title := "Keys · " + km.name
	if len(body) > rows && rows > 0 {
		scroll = max(0, min(scroll, len(body)-rows))
		body = body[scroll : scroll+rows]
		title += " · ↑/↓ scroll"
	}
	overlay(lines, width, styles.Box(title, body, width, styles.HelpBorder))
}
