package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// oneFile is the argument rule of the headless commands: exactly one FILE.
func oneFile(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		return nil
	}
	what := "no FILE"
	if len(args) > 1 {
		what = fmt.Sprintf("%d files", len(args))
	}
	return app.BadInput(fmt.Errorf("%s needs exactly one FILE (\"-\" for standard input), got %s; see %s --help", cmd.CommandPath(), what, cmd.CommandPath()))
}

// fileArg is the optional FILE argument ("" when there is none: the demo).
func fileArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// layoutFlag adds --layout, and --images: what shapes the screen.
func layoutFlag(cmd *cobra.Command, opts *app.Options) {
	cmd.Flags().StringVar(&opts.Layout, "layout", "auto", "screen layout: auto (side pane from 120 columns), side or sheet")
	imagesFlag(cmd, opts)
}

// filterFlag adds --filter.
func filterFlag(cmd *cobra.Command, opts *app.Options) {
	cmd.Flags().StringVar(&opts.Filter, "filter", "", "show only these steps on the screen: categories (execute,edit), statuses (failed, running) or text:WORDS, as the f key does")
}

// plainFlag adds --plain.
func plainFlag(cmd *cobra.Command, opts *app.Options, usage string) {
	cmd.Flags().BoolVar(&opts.Plain, "plain", false, usage)
}

// recordFlags adds --record and --append.
func recordFlags(cmd *cobra.Command, opts *app.Options) {
	cmd.Flags().StringVar(&opts.Record, "record", "", "also write the events to FILE as an AG-UI log (a JSON array, flushed per event; a new file, mode 0600; a write that fails stops with an error)")
	cmd.Flags().BoolVar(&opts.Append, "append", false, "with --record: add to an existing log instead of refusing it (a regular file, or a link to one)")
}

// fromStartFlag adds --from-start.
func fromStartFlag(cmd *cobra.Command, opts *app.Options) {
	cmd.Flags().BoolVar(&opts.FromStart, "from-start", false, "read a big log from its start, not from where the last screen of it left off (kept in the user's cache folder, agentwatch/resume)")
}

// liveFlags are the flags of the commands that watch a live source.
func liveFlags(cmd *cobra.Command, opts *app.Options) {
	recordFlags(cmd, opts)
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	filterFlag(cmd, opts)
}

// identify is App.Identify for a command's FILE argument.
func identify(a *app.App, args []string) (*app.Source, error) {
	return a.Identify(fileArg(args))
}
