package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources/acpconn"
	"github.com/agentwatch/agentwatch/tui"
)

// acpOptions are the acp command's flags.
type acpOptions struct {
	cwd           string
	allowWrite    bool
	allowTerminal bool
	permissions   string
	prompt        string
	list          bool
	load          string
	pace          time.Duration
	stderrLog     string
	auth          string
}

func newACPCommand(opts *commonOptions, stdout, stderr io.Writer) *cobra.Command {
	var ao acpOptions
	cmd := &cobra.Command{
		Use:   "acp [flags] -- CMD [ARGS…]",
		Short: "Run an ACP agent and watch it: every tool call a step on the agent computer",
		Long: `acp starts an agent that speaks the Agent Client Protocol (ACP v1) on its
standard input and output — Claude, Codex, Gemini, goose and OpenCode adapters
do — and shows the session: messages, thoughts, the plan, and every tool call
as a step with its kind, locations, diff, terminal output and images.

Type a prompt at the bottom and press Enter; esc cancels the turn. /mode ID
switches mode; / completes the agent's slash commands (tab). When the agent
asks for permission a dialog shows the tool call and its options (keys 1–9,
y allow once, a allow always, n reject, N reject always, esc cancel). Nothing
is approved unless --permissions says so.

The agent may read files inside the session folder (--cwd), write them only
with --allow-write and run commands only with --allow-terminal; paths that
lead out of the folder are refused. Its standard error goes to a log file
(--stderr-log), never onto the screen.

--list lists the agent's sessions; --load ID replays one (session/load, on
its own connection) with the replay controls, at --pace per update.
--record FILE keeps every JSON-RPC line in both directions with its time;
agentwatch replay FILE plays it back at its true pace, no agent needed.
--plain --prompt TEXT runs one turn headless and exits 0 on end_turn.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &exitError{code: exitUnreadable, err: fmt.Errorf("no agent command: agentwatch acp [flags] -- CMD [ARGS…] (see --help)")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runACP(opts, &ao, args, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&ao.cwd, "cwd", ".", "the session folder: the agent works here and may reach no file outside it")
	f.BoolVar(&ao.allowWrite, "allow-write", false, "let the agent write files in the session folder (fs/write_text_file)")
	f.BoolVar(&ao.allowTerminal, "allow-terminal", false, "let the agent run commands in the session folder (terminal/*)")
	f.StringVar(&ao.permissions, "permissions", "", "answer permission requests without asking: allow-once or allow-always")
	f.StringVar(&ao.prompt, "prompt", "", "send this prompt first (with --plain: run one turn and exit)")
	f.BoolVar(&ao.list, "list", false, "list the agent's sessions (session/list) and exit")
	f.StringVar(&ao.load, "load", "", "replay session ID (session/load) with the replay controls")
	f.DurationVar(&ao.pace, "pace", 50*time.Millisecond, "with --load: time between replayed updates")
	f.StringVar(&ao.stderrLog, "stderr-log", "", "file for the agent's standard error (default: a file in the temp folder)")
	f.StringVar(&ao.auth, "auth", "", "authentication method id to use when the agent asks for one")
	f.StringVar(&opts.record, "record", "", "write every JSON-RPC line in both directions, with its time, to FILE (JSONL)")
	f.BoolVar(&opts.plain, "plain", false, "print one line per change instead of the screen")
	f.StringVar(&opts.layout, "layout", "auto", "screen layout: auto (side pane from 120 columns), side or sheet")
	return cmd
}

func (ao *acpOptions) check(opts *commonOptions) error {
	switch ao.permissions {
	case "", "allow-once", "allow-always":
	default:
		return fmt.Errorf("--permissions %q: want allow-once or allow-always", ao.permissions)
	}
	if ao.list && ao.load != "" {
		return errors.New("--list and --load: choose one")
	}
	if ao.pace < 0 {
		return fmt.Errorf("--pace %v: want 0 or more", ao.pace)
	}
	if opts.plain && ao.prompt == "" && !ao.list && ao.load == "" {
		return errors.New("--plain needs --prompt TEXT (one headless turn), --list or --load")
	}
	return nil
}

// acpSession is a started agent with its log files.
type acpSession struct {
	conn      *acpconn.Conn
	stderrLog *os.File
	record    *os.File
}

func (s *acpSession) close() error {
	s.conn.Close()
	<-s.conn.Done()
	var err error
	if s.record != nil {
		if cerr := s.record.Close(); cerr != nil {
			err = cerr
		}
		if rerr := s.conn.RecordErr(); rerr != nil {
			err = rerr
		}
	}
	s.stderrLog.Close()
	return err
}

// startACP spawns the agent with its stderr in a log file and, with
// --record, the recording open.
func startACP(opts *commonOptions, ao *acpOptions, args []string, perms acpconn.Permissions, record bool) (*acpSession, error) {
	logPath := ao.stderrLog
	if logPath == "" {
		logPath = filepath.Join(os.TempDir(), fmt.Sprintf("agentwatch-acp-%d.log", os.Getpid()))
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, &exitError{code: exitUnreadable, err: fmt.Errorf("--stderr-log: %w", err)}
	}
	s := &acpSession{stderrLog: logFile}
	var rec io.Writer
	if record && opts.record != "" {
		f, err := os.OpenFile(opts.record, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
		if err != nil {
			logFile.Close()
			return nil, &exitError{code: exitUnreadable, err: fmt.Errorf("--record: %w (agentwatch does not overwrite a recording)", err)}
		}
		s.record, rec = f, f
	}
	conn, err := acpconn.Start(acpconn.Options{Command: args, Dir: ao.cwd, AllowWrite: ao.allowWrite, AllowTerminal: ao.allowTerminal,
		Stderr: logFile, Record: rec, Permissions: perms})
	if err != nil {
		logFile.Close()
		if s.record != nil {
			s.record.Close()
		}
		return nil, &exitError{code: exitUnreadable, err: err}
	}
	s.conn = conn
	return s, nil
}

// handshake initializes, authenticates when the agent asks to, and opens or
// loads the session.
func handshake(ctx context.Context, s *acpSession, ao *acpOptions) error {
	init, err := s.conn.Initialize(ctx)
	if err != nil {
		return err
	}
	if ao.load != "" && !init.AgentCapabilities.LoadSession {
		return errors.New("this agent cannot load sessions (it does not advertise loadSession)")
	}
	if len(init.AuthMethods) > 0 && ao.auth != "" {
		if err := s.conn.Authenticate(ctx, ao.auth); err != nil {
			return err
		}
	}
	if ao.list {
		return nil
	}
	if ao.load != "" {
		return s.conn.LoadSession(ctx, ao.load)
	}
	_, err = s.conn.NewSession(ctx)
	if err != nil && len(init.AuthMethods) > 0 && ao.auth == "" {
		var names []string
		for _, m := range init.AuthMethods {
			if m.Agent != nil {
				names = append(names, m.Agent.Id+" ("+m.Agent.Name+")")
			}
		}
		return fmt.Errorf("%w; the agent offers: %s — pass --auth ID", err, strings.Join(names, ", "))
	}
	return err
}

func runACP(opts *commonOptions, ao *acpOptions, args []string, stdout, stderr io.Writer) error {
	if err := ao.check(opts); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	fo, err := foldOptions(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case ao.list:
		return acpList(ctx, opts, ao, args, stdout)
	case ao.load != "":
		return acpLoad(ctx, opts, ao, args, fo, stdout)
	case opts.plain || !isTerminal(stdout):
		return acpPlain(ctx, opts, ao, args, fo, stdout)
	}
	return acpScreen(ctx, opts, ao, args, fo, stdout, stderr)
}

// acpList prints the agent's sessions.
func acpList(ctx context.Context, opts *commonOptions, ao *acpOptions, args []string, stdout io.Writer) error {
	s, err := startACP(opts, ao, args, acpconn.Permissions{}, false)
	if err != nil {
		return err
	}
	defer s.close()
	if err := handshake(ctx, s, ao); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	sessions, err := s.conn.ListSessions(ctx)
	if err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	for _, si := range sessions {
		title, updated := "", ""
		if si.Title != nil {
			title = *si.Title
		}
		if si.UpdatedAt != nil {
			updated = *si.UpdatedAt
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", si.SessionId, updated, oneLine(title))
	}
	return nil
}

// acpPlain runs one turn headless: the same lines as --plain elsewhere,
// exit 0 on end_turn.
func acpPlain(ctx context.Context, opts *commonOptions, ao *acpOptions, args []string, fo fold.Options, stdout io.Writer) error {
	var out strings.Builder
	perms := acpconn.Permissions{Policy: ao.permissions, Rejected: func(req acpconn.PermissionRequest, option string) {
		fmt.Fprintf(&out, "permission for %s rejected (no --permissions)\n", oneLine(firstNonEmpty(req.Title, req.ToolCallID)))
	}}
	s, err := startACP(opts, ao, args, perms, true)
	if err != nil {
		return err
	}
	f := fold.New(fo)
	printer := tui.NewPlainPrinter(stdout, f)
	printed := make(chan error, 1)
	go func() {
		var perr error
		for b := range s.conn.Records() {
			u, _ := f.Apply(b...)
			if perr == nil {
				perr = printer.Print(u)
			}
		}
		printed <- perr
	}()
	stopReason, turnErr := "", handshake(ctx, s, ao)
	if turnErr == nil {
		stopReason, turnErr = s.conn.Prompt(ctx, ao.prompt)
	}
	closeErr := s.close()
	perr := <-printed
	fmt.Fprint(stdout, out.String())
	switch {
	case turnErr != nil:
		return &exitError{code: exitProblems, err: turnErr}
	case perr != nil:
		return perr
	case closeErr != nil:
		return &exitError{code: exitUnreadable, err: fmt.Errorf("--record: %w", closeErr)}
	}
	fmt.Fprintf(stdout, "turn ended: %s\n", stopReason)
	if stopReason != "end_turn" {
		return &exitError{code: exitProblems, err: fmt.Errorf("the turn ended with %s, not end_turn", stopReason)}
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// screenAgent is the screen's handle on the connection: calls return at
// once and report back through the program.
type screenAgent struct {
	ctx  context.Context
	conn *acpconn.Conn
	prog *tea.Program
}

// Prompt runs a turn in the background and tells the screen when it ends.
func (a *screenAgent) Prompt(text string) {
	go func() {
		a.prog.Send(tui.TurnMsg{Busy: true})
		stop, err := a.conn.Prompt(a.ctx, text)
		a.prog.Send(tui.TurnMsg{StopReason: stop, Err: err})
	}()
}

// Cancel sends session/cancel; the turn's end comes through Prompt.
func (a *screenAgent) Cancel() {
	go func() { _ = a.conn.Cancel(a.ctx) }()
}

// SetMode switches the mode; a refusal shows in the title bar (a turn may
// be running, so it must not end the turn line's state).
func (a *screenAgent) SetMode(id string) {
	go func() {
		if err := a.conn.SetMode(a.ctx, id); err != nil {
			a.prog.Send(tui.SourceStatusMsg(err.Error()))
		}
	}()
}

// acpScreen runs the agent on the screen.
func acpScreen(ctx context.Context, opts *commonOptions, ao *acpOptions, args []string, fo fold.Options, stdout, stderr io.Writer) error {
	ctl := &screenAgent{ctx: ctx}
	var progReady = make(chan struct{})
	perms := acpconn.Permissions{Policy: ao.permissions, Ask: func(actx context.Context, req acpconn.PermissionRequest) (string, bool) {
		<-progReady
		answer := make(chan string, 1)
		ctl.prog.Send(tui.PermissionMsg{Request: req, Answer: answer})
		select {
		case id := <-answer:
			return id, id != ""
		case <-actx.Done():
			ctl.prog.Send(tui.PermissionClosedMsg{ToolCallID: req.ToolCallID})
			return "", false
		}
	}}
	s, err := startACP(opts, ao, args, perms, true)
	if err != nil {
		return err
	}
	ctl.conn = s.conn
	recs := make(chan []model.Record, 64)
	go func() {
		defer close(recs)
		for b := range s.conn.Records() {
			recs <- b
		}
	}()
	app := tui.NewAgentApp(fold.New(fo), recs, ctl, tui.AppOptions{Layout: opts.layout, Title: strings.Join(args, " ")})
	prog := tea.NewProgram(app, tea.WithInput(opts.stdinForKeys()), tea.WithOutput(stdout), tea.WithContext(ctx))
	ctl.prog = prog
	close(progReady)
	go prog.Send(tea.RequestBackgroundColor())
	go func() {
		if err := handshake(ctx, s, ao); err != nil {
			prog.Send(tui.TurnMsg{Err: err})
			return
		}
		if ao.prompt != "" {
			ctl.Prompt(ao.prompt)
		}
	}()
	go func() {
		<-s.conn.Done()
		if err := s.conn.ExitErr(); err != nil {
			prog.Send(tui.SourceStatusMsg("agent exited: " + err.Error()))
		} else {
			prog.Send(tui.SourceStatusMsg("agent exited"))
		}
	}()
	_, runErr := prog.Run()
	closeErr := s.close()
	fmt.Fprintf(stderr, "agentwatch: the agent's standard error is in %s\n", s.stderrLog.Name())
	if opts.record != "" {
		fmt.Fprintf(stderr, "agentwatch: recorded to %s (play it with: agentwatch replay %s)\n", opts.record, opts.record)
	}
	if runErr != nil && ctx.Err() == nil {
		return fmt.Errorf("screen: %w", runErr)
	}
	if closeErr != nil {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("--record: %w", closeErr)}
	}
	return nil
}
