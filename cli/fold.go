package cli

import (
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newFoldCommand is `agentwatch fold FILE`: the fold as JSON.
func newFoldCommand(opts *app.Options) *cobra.Command {
	var compact bool
	cmd := &cobra.Command{
		Use:   "fold FILE",
		Short: "Fold a log and print messages, state, steps, runs and diagnostics as JSON",
		Long: `fold reads an AG-UI event log and prints one JSON object:

  {"messages": […], "state": …, "steps": […], "runs": […], "diagnostics": […], "warnings": […]}

messages and state use the AG-UI wire shapes, built as the reference client
(@ag-ui/client defaultApplyEvents) builds them, so they can be compared with it.
Events that break a protocol rule are listed in diagnostics and not applied.
FILE "-" reads standard input. Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := identify(args)
			if err != nil {
				return err
			}
			f, err := app.FoldSource(opts, src)
			if err != nil {
				return err
			}
			b, err := json.Marshal(f.Summary(), json.Deterministic(true))
			if err != nil {
				return app.BadInput(err)
			}
			if !compact {
				v := jsontext.Value(b)
				if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
					return app.BadInput(err)
				}
				b = v
			}
			_, err = fmt.Fprintf(opts.Stdout, "%s\n", b)
			return err
		},
	}
	cmd.Flags().BoolVar(&compact, "compact", false, "print the JSON on one line")
	return cmd
}
