package app

import (
	"context"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
)

// messagesNote says what was detected, for titles and headers.
func messagesNote(src *Source) string {
	switch src.Kind {
	case KindOTLP:
		return otlpNote
	}
	return string(src.Format) + " · message-level review, no timing"
}

// reviewMessages shows a source read whole (a messages-only file, an OTLP
// file written out pretty): its tool calls as steps, with the panel, no timing; the
// title bar says which format was detected. Piped, it prints the steps.
func (a *App) reviewMessages(src *Source) error {
	opts := a.Options
	if !opts.Plain && opts.Record == "" && !opts.screen() {
		fo, err := opts.FoldOptions()
		if err != nil {
			return err
		}
		f := foldRecords(fo, src.Records)
		fmt.Fprintf(opts.Stdout, "%s: %s; %s, %s\n", src.Name(), messagesNote(src), Plural(len(f.Steps()), "step"), Plural(len(f.Diagnostics()), "diagnostic"))
		PrintSteps(opts.Stdout, f.Steps())
		return nil
	}
	ch := make(chan model.Batch, 1)
	ch <- model.Batch{Source: src.Name(), Records: src.Records}
	close(ch)
	status := make(chan string, 1)
	status <- messagesNote(src)
	close(status)
	return a.Watch(context.Background(), src.Name(), ch, status)
}
