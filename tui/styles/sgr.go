// Package styles holds the colours of agentwatch's screen: the SGR
// sequences the views write, and the SGR parameters the per-cell line
// writers combine. Every view takes its colours from here.
package styles

// Whole SGR sequences.
const (
	// Reset ends every coloured span: nothing a view draws leaks colour
	// into the next cell.
	Reset = "\x1b[0m"
	// Faint is for what matters least: gutters, hints, separators.
	Faint = "\x1b[2m"
	// Bold is for headings and file headers.
	Bold = "\x1b[1m"
	// RedFg marks what was removed or failed.
	RedFg = "\x1b[31m"
	// GreenFg marks what was added or succeeded.
	GreenFg = "\x1b[32m"
	// CyanFg marks hunk headers.
	CyanFg = "\x1b[36m"
)

// SGR parameters (what goes between "ESC [" and "m") of the status
// colours, for writers that merge neighbouring cells into one span.
const (
	ParamDim    = "2"
	ParamGreen  = "32"
	ParamRed    = "31"
	ParamYellow = "33"
)

// Mark draws the selected step's mark in the transcript.
const Mark = "\x1b[1;36m"

// CursorBackground is the SGR parameters of the cursor row: a background a
// shade off the terminal's own, darker on a light background.
func CursorBackground(light bool) string {
	if light {
		return "48;5;254"
	}
	return "48;5;237"
}

// Match draws a search's matches: black on yellow reads on any theme.
const Match = "\x1b[30;43m"
