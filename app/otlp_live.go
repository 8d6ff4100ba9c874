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

// reviewPrettyOTLP opens an OTLP file written out pretty (one request for
// the whole file, which has no lines to follow) for review, as
// agentwatch FILE does; handled is false for any other path.
func reviewPrettyOTLP(opts *Options, path string) (handled bool, err error) {
	head, err := readHead(path)
	if err != nil || !otlp.LooksLikeOTLP(head) || otlp.PerLine(head) {
		return false, nil
	}
	src, err := Identify(path)
	if err != nil {
		return true, err
	}
	if err := withToolKinds(opts, src); err != nil {
		return true, err
	}
	return true, reviewMessages(opts, src)
}

// otlpPerLine reports whether path is an OTLP/JSON file of a request per
// line (the Collector's file exporter), which is followed as it grows.
func otlpPerLine(path string) bool {
	head, err := readHead(path)
	return err == nil && otlp.LooksLikeOTLP(head) && otlp.PerLine(head)
}

// followedWhole is WholeFile for a followed folder: an OTLP file of a
// request per line is followed like an event log (liveOTLP maps its
// lines as they come), not read once.
func followedWhole(path string) ([]model.Record, bool) {
	if otlpPerLine(path) {
		return nil, false
	}
	return WholeFile(path)
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
