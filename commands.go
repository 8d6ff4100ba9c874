package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/assets"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// commonOptions are the flags every command shares.
type commonOptions struct {
	toolKinds string
	layout    string
	plain     bool
	record    string
	appendTo  bool
	play      bool
	stdin     io.Reader
}

// stdinForKeys is where the screen reads keys: the terminal, even when the
// log itself comes from standard input.
func (o *commonOptions) stdinForKeys() io.Reader {
	if o.stdin == os.Stdin {
		if tty, err := os.Open("/dev/tty"); err == nil {
			return tty
		}
	}
	return o.stdin
}

// foldFile reads a whole log and folds it. Read errors come back as an
// exitError with code 2; problems in the content are diagnostics in the fold.
func foldFile(opts *commonOptions, path string) (*fold.Fold, error) {
	if recs, _, ok, err := messagesFile(path); err != nil {
		return nil, err
	} else if ok {
		return foldMessages(opts, recs)
	}
	if recs, ok, err := acpRecordingFile(path); err != nil {
		return nil, err
	} else if ok {
		return foldMessages(opts, recs)
	}
	fo, err := foldOptions(opts)
	if err != nil {
		return nil, err
	}
	in, closeIn, err := openInput(opts, path)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	f := fold.New(fo)
	// Reading and decoding run beside the fold (sources.Batches).
	batches, wait := sources.Batches(context.Background(), sources.NewReader(in), 512)
	for batch := range batches {
		// Records of another thread are reported as diagnostics by the fold.
		_, _ = f.Apply(batch...)
	}
	if err := wait(); err != nil {
		return nil, &exitError{code: exitUnreadable, err: fmt.Errorf("read %s: %w", displayName(path), err)}
	}
	return f, nil
}

// foldOptions reads --tool-kinds.
func foldOptions(opts *commonOptions) (fold.Options, error) {
	fo := fold.Options{}
	if opts.toolKinds == "" {
		return fo, nil
	}
	data, err := os.ReadFile(opts.toolKinds)
	if err != nil {
		return fo, &exitError{code: exitUnreadable, err: fmt.Errorf("--tool-kinds: %w", err)}
	}
	if fo.ToolKinds, err = fold.ParseToolKinds(data); err != nil {
		return fo, &exitError{code: exitUnreadable, err: fmt.Errorf("--tool-kinds %s: %w", opts.toolKinds, err)}
	}
	return fo, nil
}

// openInput opens the log to read: the embedded demo for "", standard
// input for "-", else the file.
func openInput(opts *commonOptions, path string) (io.Reader, func(), error) {
	switch path {
	case "":
		return bytes.NewReader(assets.Demo), func() {}, nil
	case "-":
		return opts.stdin, func() {}, nil
	}
	f, err := sources.Open(path)
	if err != nil {
		return nil, nil, &exitError{code: exitUnreadable, err: err}
	}
	return f, func() { f.Close() }, nil
}

// oneFile is the argument rule of the headless commands: exactly one FILE.
func oneFile(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		return nil
	}
	what := "no FILE"
	if len(args) > 1 {
		what = fmt.Sprintf("%d files", len(args))
	}
	return &exitError{code: exitUnreadable, err: fmt.Errorf("%s needs exactly one FILE (\"-\" for standard input), got %s; see %s --help", cmd.CommandPath(), what, cmd.CommandPath())}
}

func fileArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func newFoldCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	var compact bool
	cmd := &cobra.Command{
		Use:   "fold FILE",
		Short: "Fold a log and print messages, state, steps, runs and diagnostics as JSON",
		Long: `fold reads an AG-UI event log and prints one JSON object:

  {"messages": […], "state": …, "steps": […], "runs": […], "diagnostics": […], "warnings": […]}

messages and state use the AG-UI wire shapes, built as the reference client
(@ag-ui/client defaultApplyEvents) builds them, so they can be compared with it.
Events that break a protocol rule are listed in diagnostics and not applied.
FILE "-" reads standard input. Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := foldFile(opts, args[0])
			if err != nil {
				return err
			}
			b, err := json.Marshal(f.Summary(), json.Deterministic(true))
			if err != nil {
				return &exitError{code: exitUnreadable, err: err}
			}
			if !compact {
				v := jsontext.Value(b)
				if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
					return &exitError{code: exitUnreadable, err: err}
				}
				b = v
			}
			_, err = fmt.Fprintf(stdout, "%s\n", b)
			return err
		},
	}
	cmd.Flags().BoolVar(&compact, "compact", false, "print the JSON on one line")
	return cmd
}

func newValidateCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	var warnings bool
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a log against the AG-UI 1.0 rules; one line per problem",
		Long: `validate reads an AG-UI event log and prints one line per problem:

  #SEQ TYPE: message   [rule]

SEQ numbers the events from 1 in file order. The rules are those of the
reference verifier (@ag-ui/client verifyEvents), plus unreadable or malformed
events and events of another thread. Unlike the reference, validate goes on
after the first problem, so every problem is listed.

Exit status: 0 clean, 1 problems found, 2 FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := foldFile(opts, args[0])
			if err != nil {
				return err
			}
			for _, d := range f.Diagnostics() {
				typ := d.Type
				if typ == "" {
					typ = "(no type)"
				}
				fmt.Fprintf(stdout, "#%d %s: %s  [%s]\n", d.Seq, tui.Plain(typ), tui.Plain(d.Message), d.Rule)
			}
			if warnings {
				for _, w := range f.Warnings() {
					fmt.Fprintf(stdout, "#%d %s: warning: %s\n", w.Seq, tui.Plain(w.Type), tui.Plain(w.Message))
				}
			}
			if n := len(f.Diagnostics()); n > 0 {
				return &exitError{code: exitProblems, err: errSilent}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&warnings, "warnings", "w", false, "also print what the reference reducer only warns about (exit status unchanged)")
	return cmd
}

func newStepsCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "steps FILE",
		Short: "List the agent computer's steps: index, category, label, status, duration",
		Long: `steps reads an AG-UI event log and prints one line per step (tool call):

  INDEX  CATEGORY  LABEL  STATUS  DURATION

The category comes from TOOL_CALL_START.metadata.category (or .kind) and the
location from .location, or from --tool-kinds; otherwise it is "other".
FILE "-" reads standard input. Exit status: 0, or 2 when FILE cannot be read.`,
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := foldFile(opts, args[0])
			if err != nil {
				return err
			}
			printSteps(stdout, f.Steps())
			noteProblems(cmd.ErrOrStderr(), f, args[0])
			return nil
		},
	}
}

// noteProblems tells on stderr that the log had problems the output does not show.
func noteProblems(w io.Writer, f *fold.Fold, path string) {
	if n := len(f.Diagnostics()); n > 0 {
		fmt.Fprintf(w, "agentwatch: %d problem(s) in %s were skipped; run: agentwatch validate %s\n", n, displayName(path), path)
	}
}

func displayName(path string) string {
	switch path {
	case "":
		return "the embedded demo"
	case "-":
		return "standard input"
	}
	return path
}

func printSteps(w io.Writer, steps []*model.Step) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range steps {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", s.Index+1, s.Category, oneLine(s.Label()), s.Status, duration(s))
	}
	tw.Flush()
}

// oneLine makes agent text safe for a terminal and keeps it on one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(tui.Plain(s)), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

func duration(s *model.Step) string {
	d := s.Duration()
	if d <= 0 {
		return "-"
	}
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// checkLayout refuses a --layout the screen does not know.
func checkLayout(opts *commonOptions) error {
	switch opts.layout {
	case tui.LayoutAuto, tui.LayoutSide, tui.LayoutSheet:
		return nil
	}
	return &exitError{code: exitUnreadable, err: fmt.Errorf("--layout %q: want auto, side or sheet", opts.layout)}
}

func runView(opts *commonOptions, args []string, stdout io.Writer) error {
	path := fileArg(args)
	if err := checkLayout(opts); err != nil {
		return err
	}
	if recs, format, ok, err := messagesFile(path); err != nil {
		return err
	} else if ok {
		return reviewMessages(opts, path, recs, format, stdout)
	}
	if recs, ok, err := acpRecordingFile(path); err != nil {
		return err
	} else if ok && !opts.play {
		return reviewMessages(opts, path, recs, "ACP recording", stdout)
	}
	if !opts.plain && opts.record == "" && !isTerminal(stdout) {
		// Piped without --plain: the step list, for scripts.
		f, err := foldFile(opts, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d steps, %d runs, %d diagnostics\n", displayName(path), len(f.Steps()), len(f.Runs()), len(f.Diagnostics()))
		printSteps(stdout, f.Steps())
		return nil
	}
	if (path == "" || opts.play) && !opts.plain && opts.record == "" {
		// The demo, and a log opened with --play, play at their recorded pace.
		return runReplay(opts, defaultReplay(), path, stdout)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if path != "" && path != "-" && !opts.plain {
		// On the screen a file is followed if it grows, as tail does.
		if _, err := os.Stat(path); err != nil {
			_, _, err := openInput(opts, path) // the same error as the other commands
			return err
		}
		return followFile(ctx, opts, path, stdout)
	}
	in, closeIn, err := openInput(opts, path)
	if err != nil {
		return err
	}
	defer closeIn()
	// Buffered, so a burst waits here and the screen takes it as one batch
	// (TestBurstIsBatched: ~150 updates for 10,000 sends, ~5,000 unbuffered).
	recs := make(chan []model.Record, 64)
	batches, _ := sources.Batches(ctx, sources.NewReader(in), 512)
	go func() {
		defer close(recs)
		for b := range batches {
			select {
			case recs <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return watch(ctx, opts, displayName(path), recs, nil, stdout)
}

// isTerminal reports whether w is a terminal: the screen needs one, a pipe
// gets the step list.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
