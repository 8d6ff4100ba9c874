package cli

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/sanitize"
)

// threadResult is one thread's fold in the many-thread output: the
// one-thread shape, and for a folder the file it came from.
type threadResult struct {
	Source      string `json:"source,omitempty"`
	fold.Result `json:",inline"`
}

// newFoldCommand is `agentwatch fold FILE`: the fold as JSON.
func newFoldCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var compact bool
	var thread string
	cmd := &cobra.Command{
		Use:   "fold FILE|DIR",
		Short: "Fold a log and print messages, state, steps, runs and diagnostics as JSON",
		Long: `fold reads an AG-UI event log and prints one JSON object:

  {"threadId": …, "messages": […], "state": …, "steps": […], "runs": […], "diagnostics": […], "warnings": […]}

messages and state use the AG-UI wire shapes, built as the reference client
(@ag-ui/client defaultApplyEvents) builds them, so they can be compared with it.
Events that break a protocol rule are listed in diagnostics and not applied.
Strings hold the agent's text as it was sent; C1 control characters and
bidirectional overrides in it are written as \u escapes, so the JSON decodes
to the same text and shows nothing a terminal acts on.

Each thread is folded on its own. A log (or a folder of logs) with several
threads prints {"threads": [ … ]}, one object of the shape above per thread
in order of first appearance (with "source", the file, for a folder);
--thread ID prints that thread alone. FILE "-" reads standard input.
Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, _, list, err := foldThreads(a, args, thread)
			if err != nil {
				return err
			}
			var out any
			switch {
			case len(list) == 0:
				out = fold.New(fold.Options{}).Summary()
			case len(list) == 1:
				out = list[0].Fold.Summary()
			default:
				all := make([]threadResult, len(list))
				for i, th := range list {
					all[i].Result = th.Fold.Summary()
					if src.Kind == app.KindFolder {
						all[i].Source = th.Source
					}
				}
				out = map[string]any{"threads": all}
			}
			// Written as it is encoded: a whole log's fold is as big as the
			// log, and a buffer of it (and an indented copy) doubled the
			// memory and the time of the command. Agent text stays as the
			// agent wrote it, but the characters a terminal acts on are
			// written as \u escapes (sanitize.JSONWriter).
			w := sanitize.NewJSONWriter(opts.Stdout, 256<<10)
			enc := []json.Options{json.Deterministic(true)}
			if !compact {
				enc = append(enc, jsontext.WithIndent("  "))
			}
			if err := json.MarshalWrite(w, out, enc...); err != nil {
				return app.BadInput(err)
			}
			if _, err := w.Write([]byte{'\n'}); err != nil {
				return err
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&compact, "compact", false, "print the JSON on one line")
	threadFlag(cmd, &thread)
	return cmd
}
