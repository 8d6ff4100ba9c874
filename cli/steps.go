package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newStepsCommand is `agentwatch steps FILE`: one line per step.
func newStepsCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var thread string
	cmd := &cobra.Command{
		Use:   "steps FILE|DIR",
		Short: "List the agent computer's steps: index, category, label, status, duration",
		Long: `steps reads an AG-UI event log and prints one line per step (tool call):

  INDEX  CATEGORY  LABEL  STATUS  DURATION

The category comes from TOOL_CALL_START.metadata.category (or .kind) and the
location from .location, or from --tool-kinds; otherwise it is "other".
A log (or folder) of several threads lists every thread's steps, thread by
thread in order of first appearance, with the thread id first on each line;
--thread ID lists one thread's. FILE "-" reads standard input.
Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, _, list, err := foldThreads(a, args, thread)
			if err != nil {
				return err
			}
			app.PrintThreadSteps(opts.Stdout, list)
			problems := 0
			for _, th := range list {
				problems += len(th.Fold.Diagnostics())
			}
			if problems > 0 {
				fmt.Fprintf(opts.Stderr, "agentwatch: %s in %s skipped; run: agentwatch validate %s\n", app.Plural(problems, "problem"), src.Name(), src.Arg)
			}
			return nil
		},
	}
	threadFlag(cmd, &thread)
	return cmd
}
