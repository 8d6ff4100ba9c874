package transcript

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// SetStepFilter shows only the tool-call rows of the steps keep keeps
// (messages and every other row stay); nil shows them all. Call it again
// when what keep decides changes.
func (t *Transcript) SetStepFilter(keep func(step int) bool) {
	t.keep = keep
	t.index()
}

// SetHighlight draws the matches of m in the rows in view; an empty
// matcher draws none.
func (t *Transcript) SetHighlight(m search.Matcher) { t.match = m }

// highlight draws the search's matches over a row.
func (t *Transcript) highlight(line string) string {
	if t.match.Empty() {
		return line
	}
	return render.MarkSpans(line, t.match.All(ansi.Strip(line)), styles.Match)
}
