package cli

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/internal/order"
	"github.com/agentwatch/agentwatch/internal/sanitize"
)

// newValidateCommand is `agentwatch validate FILE`: one line per problem.
func newValidateCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var warnings bool
	var thread string
	cmd := &cobra.Command{
		Use:   "validate FILE|DIR",
		Short: "Check a log against the AG-UI 1.0 rules; one line per problem",
		Long: `validate reads an AG-UI event log and prints one line per problem:

  #SEQ TYPE: message   [rule]

SEQ numbers the events from 1 in file order. The rules are those of the
reference verifier (@ag-ui/client verifyEvents), plus unreadable or malformed
events, and a run of one thread that starts while a run of another is still
open (thread-overlap). Unlike the reference, validate goes on after the
first problem, so every problem is listed.

Each thread is checked on its own, so a log of many valid threads is valid;
with several threads each line ends with the thread it is in (and for a
folder the lines of each file come together, in file order). --thread ID
checks one thread.

Exit status: 0 clean, 1 problems found, 2 FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, _, list, err := foldThreads(a, args, thread)
			if err != nil {
				return err
			}
			// Warnings come after every problem, as a second list.
			type line struct {
				warning   bool
				file, seq uint64
				text      string
			}
			files := map[string]uint64{}
			var lines []line
			problems := 0
			for _, th := range list {
				if _, ok := files[th.Source]; !ok {
					files[th.Source] = uint64(len(files))
				}
				where := ""
				if len(list) > 1 {
					where = "  thread " + sanitize.Plain(th.Key())
					if src.Kind == app.KindFolder {
						where += " in " + sanitize.Plain(th.Source)
					}
				}
				for _, d := range th.Fold.Diagnostics() {
					problems++
					typ := d.Type
					if typ == "" {
						typ = "(no type)"
					}
					lines = append(lines, line{false, files[th.Source], d.Seq, fmt.Sprintf("#%d %s: %s  [%s]%s", d.Seq, sanitize.Plain(typ), sanitize.Plain(d.Message), d.Rule, where)})
				}
				if warnings {
					for _, w := range th.Fold.Warnings() {
						lines = append(lines, line{true, files[th.Source], w.Seq, fmt.Sprintf("#%d %s: warning: %s%s", w.Seq, sanitize.Plain(w.Type), sanitize.Plain(w.Message), where)})
					}
				}
			}
			slices.SortStableFunc(lines, func(a, b line) int {
				return cmp.Or(order.Bool(a.warning, b.warning), cmp.Compare(a.file, b.file), cmp.Compare(a.seq, b.seq))
			})
			for _, l := range lines {
				fmt.Fprintln(opts.Stdout, l.text)
			}
			if problems > 0 {
				return &app.ProblemsError{}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&warnings, "warnings", "w", false, "also print what the reference reducer only warns about (exit status unchanged)")
	threadFlag(cmd, &thread)
	return cmd
}
