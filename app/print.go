package app

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui"
)

// PrintSteps writes one line per step: index, category, label, status,
// duration, in aligned columns.
func PrintSteps(w io.Writer, steps []*model.Step) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range steps {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", s.Index+1, s.Category, OneLine(s.Label()), s.Status, Duration(s))
	}
	tw.Flush()
}

// PrintThreadSteps writes the steps of threads: as PrintSteps for one
// thread, and with the thread's id first on each line for several.
func PrintThreadSteps(w io.Writer, threads []*fold.Thread) {
	if len(threads) == 1 {
		PrintSteps(w, threads[0].Fold.Steps())
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, th := range threads {
		id := OneLine(th.Key())
		for _, s := range th.Fold.Steps() {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", id, s.Index+1, s.Category, OneLine(s.Label()), s.Status, Duration(s))
		}
	}
	tw.Flush()
}

// OneLine makes agent text safe for a terminal and keeps it on one line of
// at most 100 characters.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(tui.Plain(s)), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
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
