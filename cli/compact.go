package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newCompactCommand is `agentwatch compact FILE`: the log compacted as
// @ag-ui/client's compactEvents does it, less its faults.
func newCompactCommand(a *app.App) *cobra.Command {
	var output, thread string
	cmd := &cobra.Command{
		Use:   "compact FILE",
		Short: "Compact a log: one delta per message and tool call, one state snapshot per run",
		Long: `compact reads an AG-UI event log and writes it compacted, as one JSON array:
each text message's and tool call's deltas merged into one event, events that
arrived in the middle of a stream moved after it, and each run's state events
collapsed into one STATE_SNAPSHOT before the run's end (deltas are kept as
they are when the run has no snapshot). Other events are written exactly as
read, except that C1 control characters and bidirectional overrides in their
strings are written as \u escapes (the same text to any JSON reader, and
nothing a terminal acts on).

It follows the reference compactEvents (@ag-ui/client) and gives the same
output wherever that one is sound. Where it is not (a run that ends with a
stream still open; overlapping messages or parallel tool calls that end in
another order than they started) the streams are closed at their run's end
and written in the order they started. Either way the compacted log verifies
whenever FILE does, and folds to the same messages, in the same order, and
the same state.

Compacted logs reorder events and drop the timestamps of merged deltas: keep
them for archives and for the final fold, not for replay at recorded pace.

A log of several threads is compacted thread by thread: the output holds
each thread's compacted events, one thread after another in order of first
appearance; --thread ID keeps one thread.

-o FILE replaces FILE only once the compacted log is complete, and only
if FILE is a regular file (its mode is kept) or a new path (created 0600);
a link to a regular file has that file replaced and stays a link. A
device, a named pipe, a folder or a link to one is refused.

FILE "-" reads standard input. Exit status: 0; 1 when no compaction kept
the log's meaning (the log is then written unchanged); 2 when FILE cannot be
read or holds something that is not an event.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := identify(a, args)
			if err != nil {
				return err
			}
			return a.Compact(src, output, thread)
		},
	}
	threadFlag(cmd, &thread)
	cmd.Flags().StringVarP(&output, "output", "o", "", `write the compacted log to FILE instead of standard output ("-": standard output)`)
	return cmd
}
