package app

import (
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
)

// PrintSteps writes one line per step: index, category, label, status,
// duration, in aligned columns.
func PrintSteps(w io.Writer, steps []*model.Step) {
	rows := make([][]string, 0, len(steps))
	for _, s := range steps {
		rows = append(rows, []string{strconv.Itoa(s.Index + 1), string(s.Category), nested(s) + OneLine(s.Label()), string(s.Status), Duration(s)})
	}
	io.WriteString(w, Columns(rows, 2))
}

// PrintThreadSteps writes the steps of threads: as PrintSteps for one
// thread, and with the thread's id first on each line for several.
func PrintThreadSteps(w io.Writer, threads []*fold.Thread) {
	if len(threads) == 1 {
		PrintSteps(w, threads[0].Fold.Steps())
		return
	}
	var rows [][]string
	for _, th := range threads {
		id := OneLine(th.Key())
		for _, s := range th.Fold.Steps() {
			rows = append(rows, []string{id, strconv.Itoa(s.Index + 1), string(s.Category), nested(s) + OneLine(s.Label()), string(s.Status), Duration(s)})
		}
	}
	io.WriteString(w, Columns(rows, 2))
}

// nested is what goes before a subagent's step's label: two spaces a level
// and a corner, so its steps read as the work of the step above them.
func nested(s *model.Step) string {
	if s.Depth <= 0 {
		return ""
	}
	return strings.Repeat("  ", min(s.Depth, 8)-1) + "└ "
}

// Columns lines rows up in columns gap cells apart, by the cells each
// text takes on a terminal (a CJK character takes two, an emoji two, a
// combining mark none): text/tabwriter counts characters, which put every
// column after a wide label out of line.
func Columns(rows [][]string, gap int) string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+gap))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// OneLine makes agent text safe for a terminal and keeps it on one line of
// at most 100 cells.
func OneLine(s string) string {
	return ansi.Truncate(strings.Join(strings.Fields(sanitize.Plain(s)), " "), 100, "…")
}

// Duration is a step's duration for a column: "-" when unknown, to the
// millisecond under a second, else to a tenth of a second.
func Duration(s *model.Step) string {
	d := s.Duration()
	if d <= 0 {
		return "-"
	}
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
