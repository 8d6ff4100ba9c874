package cli

import (
	"io"
	"strconv"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
)

// threadLine is one thread as `threads --json` prints it.
type threadLine struct {
	ThreadID string `json:"threadId"`
	Title    string `json:"title"`
	Source   string `json:"source"`
	Runs     int    `json:"runs"`
	Steps    int    `json:"steps"`
	Failed   int    `json:"failed"`
	Problems int    `json:"problems"`
	Events   int    `json:"events"`
	// First and Last are RFC 3339 times, null when the events carry none.
	First *string `json:"first"`
	Last  *string `json:"last"`
}

// newThreadsCommand is `agentwatch threads FILE|DIR`: one line per thread.
func newThreadsCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "threads FILE|DIR",
		Short: "List the threads of a log or a folder of logs: id, title, file, runs, steps, failures, times",
		Long: `threads reads an AG-UI event log, an ACP recording, or every log in a folder
(or matching a quoted glob such as 'runs/*.jsonl'), and prints one line per
thread, in order of first appearance:

  ID  TITLE  SOURCE  RUNS  STEPS  FAILED  FIRST  LAST

The title is the thread's first user message. A thread is what AG-UI's
threadId names (each run's RUN_STARTED says which), or an ACP session.
FIRST and LAST are the times of the thread's first and last event ("-" when
the log has none). --json prints an array of objects instead, for scripts.
Use the id with --thread in fold, steps, validate, compact and replay.
Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, ts, _, err := foldThreads(a, args, "")
			if err != nil {
				return err
			}
			lines := make([]threadLine, 0, ts.Len())
			for _, th := range ts.List() {
				lines = append(lines, describe(th))
			}
			if asJSON {
				b, err := json.Marshal(lines, json.Deterministic(true))
				if err != nil {
					return app.BadInput(err)
				}
				v := jsontext.Value(b)
				if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
					return app.BadInput(err)
				}
				w := sanitize.NewJSONWriter(opts.Stdout, 64<<10) // titles are agent text
				w.Write(append(v, '\n'))
				return w.Flush()
			}
			rows := [][]string{{"ID", "TITLE", "SOURCE", "RUNS", "STEPS", "FAILED", "FIRST", "LAST"}}
			for _, l := range lines {
				rows = append(rows, []string{app.OneLine(l.ThreadID), shorten(app.OneLine(l.Title), 60), app.OneLine(l.Source),
					strconv.Itoa(l.Runs), strconv.Itoa(l.Steps), strconv.Itoa(l.Failed), orDash(l.First), orDash(l.Last)})
			}
			_, err = io.WriteString(opts.Stdout, app.Columns(rows, 2))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one object per thread")
	return cmd
}

// describe sums up one thread.
func describe(th *fold.Thread) threadLine {
	l := threadLine{ThreadID: th.ID, Title: th.Title(), Source: th.Source, Runs: len(th.Fold.Runs()),
		Steps: len(th.Fold.Steps()), Problems: len(th.Fold.Diagnostics()), Events: th.Records,
		First: stamp(th.First), Last: stamp(th.Last)}
	for _, s := range th.Fold.Steps() {
		if s.Status == model.StatusFailed {
			l.Failed++
		}
	}
	return l
}

func stamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	return &s
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

// shorten cuts s to n cells, ending with "…" when cut.
func shorten(s string, n int) string { return ansi.Truncate(s, n, "…") }
