package transcript

import (
	"encoding/json"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// compactionMarker is the row where an agent compacted its context.
const compactionMarker = "── context compacted ──"

// isCompaction tells a compaction marker: Claude Code's becomes an
// activity "compaction" (protocol/claude), Codex's a CUSTOM event of that
// name (protocol/codex).
func isCompaction(it *model.Item) bool {
	return it.Name == "compaction" && (it.Kind == model.ItemActivity || it.Kind == model.ItemCustom)
}

// leftOut tells an item the transcript draws no row for: a thread's title
// (a CUSTOM "title" event), which the header and the thread list already
// show.
func leftOut(it *model.Item) bool {
	return it.Kind == model.ItemCustom && it.Name == "title"
}

// compactionRow draws a compaction as its marker, then the summary the
// agent continues from, dim and cut to the width.
func compactionRow(it *model.Item, pad string, w int) string {
	row := pad + compactionMarker
	if s := compactionSummary(it); s != "" {
		row += " " + styled(s, styles.ParamDim)
	}
	if ansi.StringWidth(row) > w {
		row = ansi.Truncate(row, w, "…")
	}
	return fitLine(row, w)
}

// compactionSummary is a compaction's summary as one safe line: Claude
// Code's "summary", Codex's "message"; "" when it has none.
func compactionSummary(it *model.Item) string {
	var c map[string]any
	if json.Unmarshal(it.Data, &c) != nil {
		return ""
	}
	for _, k := range []string{"summary", "message"} {
		if s, ok := c[k].(string); ok {
			if s = oneLine(s); s != "" {
				return s
			}
		}
	}
	return ""
}
