package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/tui"
)

// newValidateCommand is `agentwatch validate FILE`: one line per problem.
func newValidateCommand(opts *app.Options) *cobra.Command {
	var warnings bool
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a log against the AG-UI 1.0 rules; one line per problem",
		Long: `validate reads an AG-UI event log and prints one line per problem:

  #SEQ TYPE: message   [rule]

SEQ numbers the events from 1 in file order. The rules are those of the
reference verifier (@ag-ui/client verifyEvents), plus unreadable or malformed
events and events of another thread. Unlike the reference, validate goes on
after the first problem, so every problem is listed.

Exit status: 0 clean, 1 problems found, 2 FILE cannot be read.`,
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
			for _, d := range f.Diagnostics() {
				typ := d.Type
				if typ == "" {
					typ = "(no type)"
				}
				fmt.Fprintf(opts.Stdout, "#%d %s: %s  [%s]\n", d.Seq, tui.Plain(typ), tui.Plain(d.Message), d.Rule)
			}
			if warnings {
				for _, w := range f.Warnings() {
					fmt.Fprintf(opts.Stdout, "#%d %s: warning: %s\n", w.Seq, tui.Plain(w.Type), tui.Plain(w.Message))
				}
			}
			if len(f.Diagnostics()) > 0 {
				return &app.ProblemsError{}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&warnings, "warnings", "w", false, "also print what the reference reducer only warns about (exit status unchanged)")
	return cmd
}
