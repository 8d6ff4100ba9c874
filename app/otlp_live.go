package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// otelOptions are the translator's options for the user's --tool-kinds:
// a tool it names takes the user's category, not the builtin one.
func otelOptions(kinds fold.ToolKinds) otel.Options {
	if len(kinds) == 0 {
		return otel.Options{}
	}
	return otel.Options{UserKinds: func(tool string) bool { _, ok := kinds[tool]; return ok }}
}

// liveOTLP puts otlp.Live in front of line sources (a followed file or
// folder, standard input): a source whose lines are OTLP/JSON export
// requests is mapped line by line as they come, as the receiver maps its
// requests; any other source passes unchanged. A --tool-kinds file that
// cannot be read leaves the batches as they are: the watch that reads
// them reports it.
func liveOTLP(ctx context.Context, opts *Options, batches <-chan model.Batch) <-chan model.Batch {
	fo, err := opts.FoldOptions()
	if err != nil {
		return batches
	}
	return otlp.Live(ctx, batches, otelOptions(fo.ToolKinds))
}

// followedWhole is WholeFile for the files of the followed folder src:
// an OTLP file of a request per line is followed like an event log
// (liveOTLP maps its lines as they come), not read once. A file src was
// identified with is known by what its head said then; only a file that
// came after is looked at.
func (a *App) followedWhole(src *Source) func(path string) ([]model.Record, bool) {
	known := make(map[string]*Source, len(src.members))
	for _, m := range src.members {
		known[m.Arg] = m
	}
	return func(path string) ([]model.Record, bool) {
		f := known[path]
		if f == nil {
			l := a.look(path, true)
			src.projects.learn(path, l.Head) // before any of its batches
			f = looked(path, l)
		} else {
			c := *f // the callback runs on many goroutines: src stays as it was
			f = &c
		}
		if f.PerLine {
			return nil, false
		}
		if err := f.readWhole(false); err != nil || (f.Kind != KindMessages && f.Kind != KindOTLP) {
			return nil, false
		}
		return f.Records, true
	}
}

// stdinOTLP reads standard input whole when it holds OTLP/JSON (for the
// headless commands, which read it to its end anyway): a request per line
// or one written out pretty, mapped as a file is. ok is false for any
// other input, which opts.Stdin then reads from its start.
func stdinOTLP(opts *Options, kinds fold.ToolKinds) (recs []model.Record, ok bool, err error) {
	br := bufio.NewReaderSize(opts.Stdin, headBytes)
	opts.Stdin = br
	// The first member's name is enough: read until two quotes came.
	head := peekUntil(br, func(b []byte) bool { return bytes.Count(b, []byte{'"'}) >= 2 })
	if !otlp.LooksLikeOTLP(head) {
		return nil, false, nil
	}
	f, err := otlp.Read(br, otelOptions(kinds))
	if err != nil {
		return nil, true, BadInput(fmt.Errorf("read standard input: %w", err))
	}
	return f.Records, true, nil
}

// peekUntil returns what br holds once enough(held) says so, its buffer
// is full or the input ends.
func peekUntil(br *bufio.Reader, enough func([]byte) bool) []byte {
	for {
		b, _ := br.Peek(br.Buffered())
		if enough(b) || len(b) == br.Size() {
			return b
		}
		if _, err := br.Peek(len(b) + 1); err != nil {
			b, _ = br.Peek(br.Buffered())
			return b
		}
	}
}
