package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newRootCommand is `agentwatch [FILE]` with every command under it.
func newRootCommand(a *app.App) *cobra.Command {
	opts := a.Options
	root := &cobra.Command{
		Use:   "agentwatch [FILE|DIR]",
		Short: "Watch what AI agents do: fold AG-UI event logs into messages, steps and runs",
		Long: `agentwatch reads AG-UI event logs (a JSON array, {"events":[…]}, JSON Lines,
raw SSE text, or an array still being written) and ACP recordings, and shows
what the agent did: its messages, and each tool call as a step on the
agent's computer.

With no FILE it plays the embedded demo recording at its recorded pace, with
the replay controls (space, + and -, . and , 0–9; see agentwatch replay).
With a FILE it opens the log for review: everything folded, the last step
selected (--play plays it instead), and follows it if it grows. A big log
(8 MiB or more) opens where the last screen of it left off, when the file
still begins with what that screen read; --from-start reads it all again.
FILE "-" reads standard input. Keys: ←/→ step, space play, L back to live,
v layout, t run tree, ↑/↓ scroll, tab focus, q quit; the mouse selects
steps too; ? lists every key.

A log may hold many threads (conversations), and a folder DIR (or a quoted
glob, 'runs/*.jsonl') one log per thread: each thread is folded on its own.
Several threads open on a thread list, newest activity first: Enter opens
one, esc goes back, { and } step through threads, F follows the active one.
A folder is followed: logs created in it appear in the list.

With --plain it prints one line per change instead; piped output without
--plain gets the step list. tail follows a growing log, connect runs an
AG-UI agent over HTTP; --record FILE keeps what arrives.
The headless commands threads, fold, validate, steps and compact are for
scripts and CI.`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := identify(a, args)
			if err != nil {
				return err
			}
			return a.View(src)
		},
	}
	root.Version = version()
	root.SetOut(opts.Stdout)
	root.SetErr(opts.Stderr)
	root.PersistentFlags().StringVar(&opts.ToolKinds, "tool-kinds", "", "JSON file mapping tool names to a category (and a JSON pointer into the arguments for the location)")
	layoutFlag(root, opts)
	filterFlag(root, opts)
	plainFlag(root, opts, "print one line per change (message, step, run, problem) instead of the screen")
	recordFlags(root, opts)
	fromStartFlag(root, opts)
	root.Flags().BoolVar(&opts.Play, "play", false, "play FILE at its recorded pace with the replay controls (as agentwatch replay FILE)")
	root.AddCommand(newFoldCommand(a), newValidateCommand(a), newStepsCommand(a),
		newTailCommand(a), newConnectCommand(a), newCompactCommand(a),
		newReplayCommand(a), newACPCommand(a), newThreadsCommand(a),
		newServeCommand(a), newOTLPCommand(a), newClaudeCommand(a), newCodexCommand(a),
		newCopilotCommand(a), newGeminiCommand(a), newAgentsCommand(a))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return app.BadInput(fmt.Errorf("%w (see %s --help)", err, c.CommandPath()))
	})
	return root
}
