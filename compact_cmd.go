package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// newCompactCommand is `agentwatch compact FILE`: the log compacted as
// @ag-ui/client's compactEvents does it, less its faults (DESIGN.md §2.3).
func newCompactCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "compact FILE",
		Short: "Compact a log: one delta per message and tool call, one state snapshot per run",
		Long: `compact reads an AG-UI event log and writes it compacted, as one JSON array:
each text message's and tool call's deltas merged into one event, events that
arrived in the middle of a stream moved after it, and each run's state events
collapsed into one STATE_SNAPSHOT before the run's end (deltas are kept as
they are when the run has no snapshot). Other events are written exactly as
read.

It follows the reference compactEvents (@ag-ui/client) and gives the same
output wherever that one is sound. Where it is not (a run that ends with a
stream still open; overlapping messages or parallel tool calls that end in
another order than they started) the streams are closed at their run's end
and written in the order they started. Either way the compacted log verifies
whenever FILE does, and folds to the same messages, in the same order, and
the same state.

Compacted logs reorder events and drop the timestamps of merged deltas: keep
them for archives and for the final fold, not for replay at recorded pace.

FILE "-" reads standard input. Exit status: 0; 1 when no compaction kept
the log's meaning (the log is then written unchanged); 2 when FILE cannot be
read or holds something that is not an event.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompact(opts, args[0], output, stdout, cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", `write the compacted log to FILE instead of standard output ("-": standard output)`)
	return cmd
}

func runCompact(opts *commonOptions, path, output string, stdout, stderr io.Writer) error {
	in, closeIn, err := openInput(opts, path)
	if err != nil {
		return err
	}
	recs, err := sources.ReadAll(in)
	closeIn()
	if err != nil {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("read %s: %w", displayName(path), err)}
	}
	if len(recs) == 0 {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("%s holds no events", displayName(path))}
	}
	want := equiv.Fold(recs)
	res, err := compact.Compact(recs, func(out []model.Record) error { return want.Compare(equiv.Fold(out)) })
	if errors.Is(err, compact.ErrUnreadable) {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w; a compacted log can only hold events: fix or remove it (agentwatch validate %s lists every problem)", displayName(path), err, path)}
	}
	if err != nil {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w", displayName(path), err)}
	}
	if err := writeCompacted(output, stdout, res.Records); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	if n := len(want.Problems); n > 0 {
		fmt.Fprintf(stderr, "agentwatch: %d problem(s) in %s (run: agentwatch validate %s); the compacted log folds the same\n", n, displayName(path), path)
	}
	if res.Method == compact.MethodUnchanged {
		for _, r := range res.Rejected {
			fmt.Fprintf(stderr, "agentwatch: %s: %v\n", displayName(path), r)
		}
		return &exitError{code: exitProblems, err: fmt.Errorf("%s could not be compacted without changing what it folds to; it was written unchanged (please report this log)", displayName(path))}
	}
	return nil
}

// writeCompacted writes the log to stdout ("" or "-") or to a file, which
// only takes the place of an existing one once it is complete.
func writeCompacted(output string, stdout io.Writer, recs []model.Record) error {
	if output == "" || output == "-" {
		return compact.Encode(stdout, recs)
	}
	tmp, err := os.CreateTemp(filepath.Dir(output), "."+filepath.Base(output)+".*")
	if err != nil {
		return fmt.Errorf("--output %s: %w", output, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("--output %s: %w", output, err)
	}
	if err := compact.Encode(tmp, recs); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", output, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", output, err)
	}
	if err := os.Rename(tmp.Name(), output); err != nil {
		return fmt.Errorf("--output %s: %w", output, err)
	}
	return nil
}
