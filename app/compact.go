package app

import (
	"errors"
	"fmt"
	"io"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Compact writes src compacted to output ("" or "-": standard output):
// each thread compacted on its own, thread after thread in order of first
// appearance, or only the thread named by thread. It is a ProblemsError
// when no compaction keeps a thread's meaning (that thread is then written
// unchanged).
func (a *App) Compact(src *Source, output, thread string) error {
	opts := a.Options
	if src.Kind == KindFolder {
		return BadInput(fmt.Errorf("%s is a folder: compact one log at a time", src.Arg))
	}
	recs, err := compactInput(opts, src)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return BadInput(fmt.Errorf("%s holds no events", src.Name()))
	}
	if recs[0].Proto == model.ProtoACP {
		return BadInput(fmt.Errorf("%s is an ACP recording: compact makes AG-UI event logs smaller; a recording is kept as it was (agentwatch replay %s plays it)", src.Name(), src.Arg))
	}
	ts, parts := splitThreads(src, recs)
	if thread != "" {
		th, err := SelectThread(ts, src, thread)
		if err != nil {
			return err
		}
		parts = [][]model.Record{parts[ts.Index(th)]}
	}
	var out []model.Record
	problems, unchanged := 0, false
	for _, part := range parts {
		want := equiv.Fold(part)
		res, err := compact.Compact(part, func(got []model.Record) error { return want.Compare(equiv.Fold(got)) })
		if errors.Is(err, compact.ErrUnreadable) {
			return BadInput(fmt.Errorf("%s: %w; a compacted log can only hold events: fix or remove it (agentwatch validate %s lists every problem)", src.Name(), err, src.Arg))
		}
		if err != nil {
			return BadInput(fmt.Errorf("%s: %w", src.Name(), err))
		}
		out = append(out, res.Records...)
		problems += len(want.Problems)
		if res.Method == compact.MethodUnchanged {
			unchanged = true
			for _, r := range res.Rejected {
				// Why a compaction differs quotes the log's text.
				fmt.Fprintf(opts.Stderr, "agentwatch: %s: %s\n", src.Name(), sanitize.Plain(r.Error()))
			}
		}
	}
	if err := writeCompacted(output, opts.Stdout, out); err != nil {
		return BadInput(err)
	}
	if problems > 0 {
		fmt.Fprintf(opts.Stderr, "agentwatch: %s in %s (run: agentwatch validate %s); the compacted log folds the same\n", Plural(problems, "problem"), src.Name(), src.Arg)
	}
	if unchanged {
		return &ProblemsError{Err: fmt.Errorf("%s could not be compacted without changing what it folds to; it was written unchanged (please report this log)", src.Name())}
	}
	return nil
}

// splitThreads cuts records into their threads' parts, in order of first
// appearance.
func splitThreads(src *Source, recs []model.Record) (*fold.Threads, [][]model.Record) {
	ts := fold.NewThreads(fold.Options{})
	var parts [][]model.Record
	for _, r := range recs {
		th := ts.Route(src.Name(), &r)
		i := ts.Index(th)
		for len(parts) <= i {
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], r)
	}
	return ts, parts
}

// writeCompacted writes the log to stdout ("" or "-") or to a file, which
// only takes the place of an existing one once it is complete, and only if
// that is a regular file (sources.ReplaceOutput). Events are written as
// read, except that the characters a terminal acts on are \u escapes
// (sanitize.JSONWriter): a compacted log is read by people as well as programs.
func writeCompacted(output string, stdout io.Writer, recs []model.Record) error {
	encode := func(w io.Writer) error {
		jw := sanitize.NewJSONWriter(w, 256<<10)
		if err := compact.Encode(jw, recs); err != nil {
			return err
		}
		return jw.Flush()
	}
	if output == "" || output == "-" {
		return encode(stdout)
	}
	if err := sources.ReplaceOutput(output, encode); err != nil {
		if errors.Is(err, sources.ErrNotRegular) {
			return fmt.Errorf("--output: %w (\"-\" writes to standard output)", err)
		}
		return fmt.Errorf("--output %s: %s", output, errCause(err))
	}
	return nil
}

// compactInput reads every record of src: an OTLP file's are the AG-UI
// events its telemetry maps to (docs/OTEL.md), so its compaction is an
// AG-UI log.
func compactInput(opts *Options, src *Source) ([]model.Record, error) {
	if src.Kind == KindOTLP {
		if err := withToolKinds(opts, src); err != nil {
			return nil, err
		}
		return src.Records, nil
	}
	in, closeIn, err := src.Open(opts.Stdin)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	recs, err := sources.ReadAll(in)
	if err != nil {
		return nil, BadInput(fmt.Errorf("read %s: %w", src.Name(), err))
	}
	return recs, nil
}
