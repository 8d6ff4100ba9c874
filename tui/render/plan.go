package render

// The plan view: an agent's plan (ACP plan, a plan item's Data) as a
// checklist with its progress.

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// planBarMax is the widest the progress bar is drawn, in cells.
const planBarMax = 20

// PlanLines draws a plan for a panel width×height cells: a progress line
// ("━━━━──── 3 of 7 done", the bar green up to the share done, left out
// when the width has no room for it), then one entry a line, marked
// ☐ pending, ◐ in progress (yellow, the text bold) and ☑ completed (green, the
// text dim), with a high-priority entry's mark followed by a red "!". A long
// entry wraps under its text. When the entries do not Fit, the completed ones
// at the top give way first (one dim line "☑ N done" stands for them), then
// the last line says "… N more lines". entries is a plan item's Data: a JSON
// array of model.PlanEntry. Every line is exactly width cells with only SGR
// escapes, and agent text is made Plain; invalid JSON, or a width or height
// below 1, gives nil.
func PlanLines(entries json.RawMessage, width, height int) []string {
	if width < 1 || height < 1 {
		return nil
	}
	var plan []model.PlanEntry
	if json.Unmarshal(entries, &plan) != nil {
		return nil
	}
	done := 0
	for _, e := range plan {
		if e.Status == "completed" {
			done++
		}
	}
	lines := []string{planProgress(done, len(plan), width)}

	rows := make([][]string, len(plan))
	total := 0
	for i, e := range plan {
		rows[i] = planEntry(e, width)
		total += len(rows[i])
	}
	// Completed entries at the top give way to the ones still to do.
	skip, skipped := 0, 0
	for skip < len(plan) && plan[skip].Status == "completed" && 1+total > height {
		total -= len(rows[skip])
		skip++
		if skip == 1 {
			total++ // the "☑ N done" line
		}
	}
	if skip > 0 {
		skipped = skip
		w := NewLine(width)
		w.Put("☑ ", styles.ParamGreen)
		w.Put(strconv.Itoa(skipped)+" done", styles.ParamDim)
		lines = append(lines, w.String())
	}
	box := NewLineBox(width, height-len(lines))
	for _, r := range rows[skip:] {
		for _, l := range r {
			box.Add(l)
		}
	}
	lines = append(lines, box.Done()...)
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = Pad(l, width)
	}
	return lines
}

// planProgress is the first line: a bar and "N of M done".
func planProgress(done, total, width int) string {
	w := NewLine(width)
	text := strconv.Itoa(done) + " of " + strconv.Itoa(total) + " done"
	if bar := min(planBarMax, width-len(text)-1); bar >= 4 && total > 0 {
		full := bar * done / total
		w.RepeatSGR("━", full, styles.ParamGreen)
		w.RepeatSGR("─", bar-full, styles.ParamDim)
		w.Put(" ", "")
	}
	w.Put(text, styles.ParamBold)
	return w.String()
}

// RepeatSGR writes n copies of the one-cell glyph g in colour sgr.
func (w *Line) RepeatSGR(g string, n int, sgr string) {
	n = min(n, w.Room())
	if n <= 0 {
		return
	}
	w.setSGR(sgr)
	w.b.WriteString(strings.Repeat(g, n))
	w.col += n
}

// planEntry is one entry: its mark, then its text wrapped under itself.
func planEntry(e model.PlanEntry, width int) []string {
	mark, markSGR, textSGR := "☐", styles.ParamDim, ""
	switch e.Status {
	case "in_progress":
		mark, markSGR, textSGR = "◐", styles.ParamYellow, styles.ParamBold
	case "completed":
		mark, markSGR, textSGR = "☑", styles.ParamGreen, styles.ParamDim
	}
	prefix := 2
	high := e.Priority == "high"
	if high {
		prefix = 3
	}
	text := sanitize.Plain(strings.TrimSpace(e.Content))
	text = strings.Join(strings.Fields(text), " ") // one paragraph
	cells := width - prefix
	var parts []string
	if cells < 1 {
		parts = []string{text}
	} else {
		parts = strings.Split(ansi.Wrap(text, cells, ""), "\n")
	}
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		w := NewLine(width)
		if i == 0 {
			w.Put(mark, markSGR)
			if high {
				w.Put("!", styles.ParamRed)
			}
			w.Put(" ", "")
		} else {
			w.Spaces(prefix)
		}
		w.Put(p, textSGR)
		out = append(out, w.String())
	}
	return out
}
