// Command agentwatch watches what AI agents do: it reads AG-UI event logs,
// folds them into messages, steps and runs, and shows them. Run it with no
// arguments to see the embedded demo recording; see --help for the rest.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// exitError carries the process exit code a command wants.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Exit codes: 0 clean, 1 the input has problems (validate), 2 the input
// could not be read or the command line is wrong.
const (
	exitProblems   = 1
	exitUnreadable = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A bug must never show a Go panic to the user; say what happened instead.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "agentwatch: internal error: %v\nPlease report this with the input that caused it.\n", p)
			code = 3
		}
	}()
	root := newRootCommand(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err != errSilent {
			fmt.Fprintln(stderr, "agentwatch:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "agentwatch:", err)
	return exitUnreadable
}

// version is the module version the binary was built from ("devel" for a
// build from a checkout), with the commit when Go recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}

// errSilent marks an exit whose reason was already printed.
var errSilent = errors.New("")

func newRootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	opts := &commonOptions{stdin: stdin}
	root := &cobra.Command{
		Use:   "agentwatch [FILE]",
		Short: "Watch what AI agents do: fold AG-UI event logs into messages, steps and runs",
		Long: `agentwatch reads AG-UI event logs (a JSON array, {"events":[…]}, JSON Lines,
raw SSE text, or an array still being written) and shows what the agent did:
its messages, and each tool call as a step on the agent's computer.

With no FILE it plays the embedded demo recording at its recorded pace, with
the replay controls (space, + and -, . and , 0–9; see agentwatch replay).
With a FILE it opens the log for review: everything folded, the last step
selected (--play plays it instead).
FILE "-" reads standard input. Keys: ←/→ step, space play, L back to live,
v layout, ↑/↓ scroll, tab focus, q quit; the mouse selects steps too.
With --plain it prints one line per change instead; piped output without
--plain gets the step list. tail follows a growing log, connect runs an
AG-UI agent over HTTP; --record FILE keeps what arrives.
The headless commands fold, validate and steps are for scripts and CI.`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runView(opts, args, stdout)
		},
	}
	root.Version = version()
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().StringVar(&opts.toolKinds, "tool-kinds", "", "JSON file mapping tool names to a category (and a JSON pointer into the arguments for the location)")
	root.Flags().StringVar(&opts.layout, "layout", "auto", "screen layout: auto (side pane from 120 columns), side or sheet")
	root.Flags().BoolVar(&opts.plain, "plain", false, "print one line per change (message, step, run, problem) instead of the screen")
	root.Flags().StringVar(&opts.record, "record", "", "also write the events to FILE as an AG-UI log (a JSON array, flushed per event)")
	root.Flags().BoolVar(&opts.appendTo, "append", false, "with --record: add to an existing log instead of refusing it")
	root.AddCommand(newFoldCommand(opts, stdout), newValidateCommand(opts, stdout), newStepsCommand(opts, stdout),
		newTailCommand(opts, stdout), newConnectCommand(opts, stdout), newCompactCommand(opts, stdout))
	root.Flags().BoolVar(&opts.play, "play", false, "play FILE at its recorded pace with the replay controls (as agentwatch replay FILE)")
	root.AddCommand(newReplayCommand(opts, stdout), newACPCommand(opts, stdout, stderr))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("%w (see %s --help)", err, c.CommandPath())}
	})
	return root
}
