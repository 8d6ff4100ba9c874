package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newStepsCommand is `agentwatch steps FILE`: one line per step.
func newStepsCommand(opts *app.Options) *cobra.Command {
	return &cobra.Command{
		Use:   "steps FILE",
		Short: "List the agent computer's steps: index, category, label, status, duration",
		Long: `steps reads an AG-UI event log and prints one line per step (tool call):

  INDEX  CATEGORY  LABEL  STATUS  DURATION

The category comes from TOOL_CALL_START.metadata.category (or .kind) and the
location from .location, or from --tool-kinds; otherwise it is "other".
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
			app.PrintSteps(opts.Stdout, f.Steps())
			app.NoteProblems(opts.Stderr, f, src)
			return nil
		},
	}
}
