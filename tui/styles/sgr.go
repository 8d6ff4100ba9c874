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

// Match draws a search's matches: black on yellow reads on any theme, and
// is written as yellow on black reversed, so that without colours
// (NO_COLOR) the reverse video still marks them.
const Match = "\x1b[7;33;40m"

// The colours of the views' own text, as whole SGR sequences: the 16 ANSI
// colours and attributes only, so that they follow the terminal's theme.
const (
	// Live marks what is happening now: ● LIVE, ● working.
	Live = "\x1b[1;32m"
	// Attention marks what wants a look: ⏭ Back to live, a flash note.
	Attention = "\x1b[1;33m"
	// TitleFocus and TitleNormal are the title bars of the focused pane
	// and the others.
	TitleFocus  = "\x1b[1;36m"
	TitleNormal = Faint
	// URL is a link a fetch step acted on.
	URL = "\x1b[4;34m"
	// Found marks a search step's matches in its results, and MatchPath
	// the file a result line is in.
	Found     = "\x1b[1;33m"
	MatchPath = "\x1b[35m"
	// Failed is a failed step's summary.
	Failed = "\x1b[1;31m"
)

// The source palette: syntax colours of files and JSON.
const (
	Comment = "\x1b[2;3m"
	Keyword = "\x1b[35m"
	Type    = "\x1b[36m"
	Number  = "\x1b[33m"
	String  = "\x1b[32m"
	Name    = "\x1b[34m"
	Heading = "\x1b[1;34m"
	Italic  = "\x1b[3m"
	// JSON: keys blue, strings green, numbers yellow, literals magenta.
	JSONKey     = Name
	JSONString  = String
	JSONNumber  = Number
	JSONLiteral = Keyword
)

// More SGR parameters for the per-cell writers.
const (
	ParamBold    = "1"
	ParamReverse = "7"
	// ParamYou and ParamAgent are the authors in the transcript's gutter,
	// ParamThought a thought's text.
	ParamYou     = "1;36"
	ParamAgent   = "1;35"
	ParamThought = "2;3"
)

// The parameters of Live and Attention, for the per-cell writers.
const (
	ParamLive      = "1;32"
	ParamAttention = "1;33"
)

// Green is s in green, closed: a live mark inside a frame's edge.
func Green(s string) string { return "\x1b[" + ParamGreen + "m" + s + Reset }
