package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
)

// threadFlag adds --thread.
func threadFlag(cmd *cobra.Command, id *string) {
	cmd.Flags().StringVar(id, "thread", "", "only the thread with this id (agentwatch threads FILE lists them)")
}

// foldThreads folds FILE (or a folder) into its threads, tells on stderr
// what a folder skipped, and returns the threads to show: every one in
// order of first appearance, or the one --thread names.
func foldThreads(a *app.App, args []string, thread string) (*app.Source, *fold.Threads, []*fold.Thread, error) {
	opts := a.Options
	src, err := identify(a, args)
	if err != nil {
		return nil, nil, nil, err
	}
	ts, skipped, err := a.FoldThreads(src)
	if err != nil {
		return nil, nil, nil, err
	}
	app.NoteSkipped(opts.Stderr, skipped)
	if thread == "" {
		return src, ts, ts.List(), nil
	}
	th, err := app.SelectThread(ts, src, thread)
	if err != nil {
		return nil, nil, nil, err
	}
	return src, ts, []*fold.Thread{th}, nil
}
