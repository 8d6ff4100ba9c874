package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Compact writes src compacted to output ("" or "-": standard output).
// It is a ProblemsError when no compaction keeps the log's meaning (the log
// is then written unchanged).
func Compact(opts *Options, src *Source, output string) error {
	in, closeIn, err := src.Open(opts.Stdin)
	if err != nil {
		return err
	}
	recs, err := sources.ReadAll(in)
	closeIn()
	if err != nil {
		return BadInput(fmt.Errorf("read %s: %w", src.Name(), err))
	}
	if len(recs) == 0 {
		return BadInput(fmt.Errorf("%s holds no events", src.Name()))
	}
	want := equiv.Fold(recs)
	res, err := compact.Compact(recs, func(out []model.Record) error { return want.Compare(equiv.Fold(out)) })
	if errors.Is(err, compact.ErrUnreadable) {
		return BadInput(fmt.Errorf("%s: %w; a compacted log can only hold events: fix or remove it (agentwatch validate %s lists every problem)", src.Name(), err, src.Arg))
	}
	if err != nil {
		return BadInput(fmt.Errorf("%s: %w", src.Name(), err))
	}
	if err := writeCompacted(output, opts.Stdout, res.Records); err != nil {
		return BadInput(err)
	}
	if n := len(want.Problems); n > 0 {
		fmt.Fprintf(opts.Stderr, "agentwatch: %d problem(s) in %s (run: agentwatch validate %s); the compacted log folds the same\n", n, src.Name(), src.Arg)
	}
	if res.Method == compact.MethodUnchanged {
		for _, r := range res.Rejected {
			fmt.Fprintf(opts.Stderr, "agentwatch: %s: %v\n", src.Name(), r)
		}
		return &ProblemsError{Err: fmt.Errorf("%s could not be compacted without changing what it folds to; it was written unchanged (please report this log)", src.Name())}
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
