package styles

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The palette: the 16 ANSI colours, so that the terminal's own theme,
// dark or light, picks the shades and every colour reads on both.
var (
	colourRed    = lipgloss.Color("1")
	colourGreen  = lipgloss.Color("2")
	colourYellow = lipgloss.Color("3")
	colourCyan   = lipgloss.Color("6")
)

// The lipgloss styles of the screen's chrome.
var (
	// HelpKey draws a key's name in the help and the footer.
	HelpKey = lipgloss.NewStyle().Foreground(colourCyan).Bold(true)
	// Hint draws what matters least: the footer's words, separators.
	Hint = lipgloss.NewStyle().Faint(true)
	// HelpBorder is the help overlay's edge.
	HelpBorder = lipgloss.NewStyle().Faint(true)
	// DialogBorder is the edge of a dialog that waits for an answer.
	DialogBorder = lipgloss.NewStyle().Foreground(colourYellow).Bold(true)
	// CardBorder is the computer card's edge: the text's own colour.
	CardBorder = lipgloss.NewStyle()
	// Allow and Reject colour a dialog's options.
	Allow  = lipgloss.NewStyle().Foreground(colourGreen)
	Reject = lipgloss.NewStyle().Foreground(colourRed)
)

// Box draws body in a rounded frame with title in its top edge, as narrow
// as its widest line and title allow and at most maxW cells wide: every
// overlay of the screen (help, dialogs) is drawn by it. Each line it
// returns is the same width; lines too long are cut with "…".
func Box(title string, body []string, maxW int, edge lipgloss.Style) []string {
	if maxW < 5 {
		return nil
	}
	inner := ansi.StringWidth(title) + 3
	for _, l := range body {
		inner = max(inner, ansi.StringWidth(l))
	}
	return Frame(title, "", body, min(inner+4, maxW), edge)
}

// Frame draws body in a rounded frame exactly width cells wide: title in
// the top edge and footer (when not "") in the bottom one, each left out
// when it does not fit, and each body line cut or padded to the width
// inside, a blank cell either side of it when the frame is 7 or more cells
// wide. A width below 2 draws nothing. footer may carry its own colours
// (a live mark); the edge's are around it.
func Frame(title, footer string, body []string, width int, edge lipgloss.Style) []string {
	if width < 2 {
		return nil
	}
	pad := ""
	if width >= 7 {
		pad = " "
	}
	inner := width - 2 - 2*len(pad)
	out := make([]string, 0, len(body)+2)
	out = append(out, edgeLine("╭", title, "╮", width, edge))
	side := edge.Render("│")
	for _, l := range body {
		n := ansi.StringWidth(l)
		if n > inner {
			l = ansi.Truncate(l, inner, "…")
			n = ansi.StringWidth(l)
		}
		if colourOpen(l) {
			l += Reset
		}
		out = append(out, side+pad+l+strings.Repeat(" ", inner-n)+pad+side)
	}
	out = append(out, edgeLine("╰", footer, "╯", width, edge))
	return out
}

// colourOpen reports whether the last SGR sequence in l leaves a colour
// on: one that is not a reset.
func colourOpen(l string) bool {
	i := strings.LastIndex(l, "\x1b[")
	return i >= 0 && !strings.HasPrefix(l[i:], Reset) && !strings.HasPrefix(l[i:], "\x1b[m")
}

// edgeLine is "╭─ label ───╮" (or the bottom edge) width cells wide; the
// label is left out when it does not fit with one "─" after it.
func edgeLine(left, label, right string, width int, edge lipgloss.Style) string {
	fill := width - 2
	text := ""
	if label != "" {
		if l := "─ " + label + " "; ansi.StringWidth(l)+1 <= fill {
			text = l
		}
	}
	text += strings.Repeat("─", max(0, fill-ansi.StringWidth(text)))
	return edge.Render(left + text + right)
}

// Input is the look of every input line (the search and filter lines, a
// live agent's prompt): the prompt bold and the text in the terminal's own
// colour, the placeholder and suggestions faint, the cursor in reverse
// video, so each reads on a dark and a light background alike. Bubbles'
// own styles draw the prompt and cursor white, which a light background
// hides.
func Input() textinput.Styles {
	state := textinput.StyleState{
		Text:        lipgloss.NewStyle(),
		Placeholder: lipgloss.NewStyle().Faint(true),
		Suggestion:  lipgloss.NewStyle().Faint(true),
		Prompt:      lipgloss.NewStyle().Bold(true),
	}
	blurred := state
	blurred.Text = lipgloss.NewStyle().Faint(true)
	return textinput.Styles{Focused: state, Blurred: blurred,
		Cursor: textinput.CursorStyle{Color: lipgloss.NoColor{}, Shape: tea.CursorBlock, Blink: true}}
}
