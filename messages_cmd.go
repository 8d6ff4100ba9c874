package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// maxMessagesFile is the largest file checked for being messages-only; such
// files are read whole (bigger logs are streamed as event logs).
const maxMessagesFile = 256 << 20

// messagesFile reads path when it holds only messages (an AI SDK
// UIMessage[] file or an AG-UI MESSAGES_SNAPSHOT log) and returns the
// records to fold for it and the format found; ok is false for event logs,
// standard input and the demo.
func messagesFile(path string) (recs []model.Record, format sources.MessagesFormat, ok bool, err error) {
	if path == "" || path == "-" {
		return nil, "", false, nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxMessagesFile {
		return nil, "", false, nil // the ordinary reader says what is wrong
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", false, &exitError{code: exitUnreadable, err: err}
	}
	recs, format, ok, err = sources.DetectMessages(b)
	if err != nil {
		return nil, "", false, &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w", path, err)}
	}
	return recs, format, ok, nil
}

// messagesNote says what was detected, for titles and headers.
func messagesNote(format sources.MessagesFormat) string {
	if format == "ACP recording" {
		return "ACP recording (agentwatch replay plays it at its recorded pace)"
	}
	return string(format) + " · message-level review, no timing"
}

// foldMessages folds a messages-only file's records.
func foldMessages(opts *commonOptions, recs []model.Record) (*fold.Fold, error) {
	fo, err := foldOptions(opts)
	if err != nil {
		return nil, err
	}
	f := fold.New(fo)
	_, _ = f.Apply(recs...) // problems are diagnostics in the fold
	return f, nil
}

// reviewMessages shows a messages-only file: its tool calls as steps, with
// the panel, no timing; the title bar says which format was detected.
func reviewMessages(opts *commonOptions, path string, recs []model.Record, format sources.MessagesFormat, stdout io.Writer) error {
	if !opts.plain && opts.record == "" && !isTerminal(stdout) {
		f, err := foldMessages(opts, recs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s; %d steps, %d diagnostics\n", displayName(path), messagesNote(format), len(f.Steps()), len(f.Diagnostics()))
		printSteps(stdout, f.Steps())
		return nil
	}
	ch := make(chan []model.Record, 1)
	ch <- recs
	close(ch)
	status := make(chan string, 1)
	status <- messagesNote(format)
	close(status)
	return watch(context.Background(), opts, displayName(path), ch, status, stdout)
}
