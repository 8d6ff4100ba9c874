package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/sources/acpconn"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// ACPOptions are how an ACP agent is run.
type ACPOptions struct {
	// Cwd is the session folder: the only place the agent's fs requests reach.
	Cwd string
	// AllowWrite and AllowTerminal let the agent write files and run commands there.
	AllowWrite    bool
	AllowTerminal bool
	// Permissions answers permission requests without asking: "",
	// "allow-once" or "allow-always".
	Permissions string
	// Prompt is sent first; with --plain it is the one headless turn.
	Prompt string
	// List lists the agent's sessions; Load replays one.
	List bool
	Load string
	// Pace is the time between replayed updates of a loaded session.
	Pace time.Duration
	// StderrLog is the file the agent's standard error is kept in; with
	// none only its last lines are kept, in memory, to say why it failed.
	StderrLog string
	// Auth is the authentication method to use when the agent asks for one.
	Auth string

	// stop ends the session early; ACP sets it, and a recording that
	// cannot be written calls it.
	stop func()
}

func (ao *ACPOptions) check(opts *Options) error {
	switch ao.Permissions {
	case "", "allow-once", "allow-always":
	default:
		return fmt.Errorf("--permissions %q: want allow-once or allow-always", ao.Permissions)
	}
	if ao.List && ao.Load != "" {
		return errors.New("--list and --load: choose one")
	}
	if ao.Pace < 0 {
		return fmt.Errorf("--pace %v: want 0 or more", ao.Pace)
	}
	if opts.Plain && ao.Prompt == "" && !ao.List && ao.Load == "" {
		return errors.New("--plain needs --prompt TEXT (one headless turn), --list or --load")
	}
	return nil
}

// acpSession is a started agent with its log files.
type acpSession struct {
	conn      *acpconn.Conn
	stderrLog *os.File // nil without --stderr-log
	record    *acpRecorder

	closeOnce sync.Once
	closeErr  error
}

// close stops the agent and closes its files, once however often it is
// called; the error is the recording's (it names the file), else an agent
// that could not be stopped. Stopping is bounded (acpconn.Conn.Close), so
// an agent behind a wrapper whose child holds its pipes cannot hold the
// error back.
func (s *acpSession) close() error {
	s.closeOnce.Do(func() {
		stopErr := s.conn.Close()
		if s.record != nil {
			s.closeErr = s.record.close()
		}
		if s.closeErr == nil {
			s.closeErr = stopErr
		}
		if s.stderrLog != nil {
			s.stderrLog.Close()
		}
	})
	return s.closeErr
}

// openStderrLog opens the file the agent's standard error goes to with
// --stderr-log: path, appended to, a regular file or a new one. Without
// it there is none: a file in the temporary folder would be left behind
// by every run, and its name known only once it no longer matters.
func openStderrLog(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	return sources.OpenOutput(path, os.O_WRONLY|os.O_APPEND)
}

// startACP spawns the agent with its stderr in a log file and, with
// --record, the recording open.
func startACP(opts *Options, ao *ACPOptions, args []string, perms acpconn.Permissions, record bool) (*acpSession, error) {
	logFile, err := openStderrLog(ao.StderrLog)
	if err != nil {
		return nil, BadInput(fmt.Errorf("--stderr-log: %w", err))
	}
	s := &acpSession{stderrLog: logFile}
	var stderr, rec io.Writer
	if logFile != nil {
		stderr = logFile
	}
	if record && opts.Record != "" {
		r, err := createACPRecorder(opts.Record, ao.stop)
		if err != nil {
			if logFile != nil {
				logFile.Close()
			}
			return nil, BadInput(err)
		}
		s.record, rec = r, r
	}
	conn, err := acpconn.Start(acpconn.Options{Command: args, Dir: ao.Cwd, AllowWrite: ao.AllowWrite, AllowTerminal: ao.AllowTerminal,
		Stderr: stderr, Record: rec, Permissions: perms})
	if err != nil {
		if logFile != nil {
			logFile.Close()
		}
		if s.record != nil {
			s.record.close()
			os.Remove(opts.Record) // nothing was recorded
		}
		return nil, BadInput(&agentError{err: err, start: true})
	}
	s.conn = conn
	return s, nil
}

// handshake initializes, authenticates when the agent asks to, and opens or
// loads the session.
func handshake(ctx context.Context, s *acpSession, ao *ACPOptions) error {
	init, err := s.conn.Initialize(ctx)
	if err != nil {
		return &agentError{err: err, start: true}
	}
	if ao.Load != "" && !init.AgentCapabilities.LoadSession {
		return errors.New("this agent cannot load sessions (it does not advertise loadSession)")
	}
	if len(init.AuthMethods) > 0 && ao.Auth != "" {
		if err := s.conn.Authenticate(ctx, ao.Auth); err != nil {
			return err
		}
	}
	if ao.List {
		return nil
	}
	if ao.Load != "" {
		return s.conn.LoadSession(ctx, ao.Load)
	}
	_, err = s.conn.NewSession(ctx)
	if err != nil && len(init.AuthMethods) > 0 && ao.Auth == "" {
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

// ACP runs the ACP agent command args and watches it: on the screen with a
// prompt line and permission dialog, headless for one turn with --plain
// --prompt, or listing or loading sessions.
func (a *App) ACP(ao *ACPOptions, args []string) error {
	opts := a.Options
	if err := ao.check(opts); err != nil {
		return BadInput(err)
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ao.stop = cancel
	switch {
	case ao.List:
		return acpList(ctx, opts, ao, args)
	case ao.Load != "":
		return a.acpLoad(ctx, ao, args, fo)
	case opts.Plain || !opts.screen():
		return acpPlain(ctx, opts, ao, args, fo)
	}
	return a.acpScreen(ctx, ao, args, fo)
}

// acpList prints the agent's sessions.
func acpList(ctx context.Context, opts *Options, ao *ACPOptions, args []string) error {
	s, err := startACP(opts, ao, args, acpconn.Permissions{}, false)
	if err != nil {
		return err
	}
	defer s.close()
	if err := handshake(ctx, s, ao); err != nil {
		s.close()
		return BadInput(withStderr(err, s))
	}
	sessions, err := s.conn.ListSessions(ctx)
	if err != nil {
		return BadInput(err)
	}
	for _, si := range sessions {
		title, updated := "", ""
		if si.Title != nil {
			title = *si.Title
		}
		if si.UpdatedAt != nil {
			updated = *si.UpdatedAt
		}
		fmt.Fprintf(opts.Stdout, "%s\t%s\t%s\n", si.SessionId, updated, OneLine(title))
	}
	return nil
}

// acpPlain runs one turn headless: the same lines as --plain elsewhere,
// exit 0 on end_turn.
func acpPlain(ctx context.Context, opts *Options, ao *ACPOptions, args []string, fo fold.Options) error {
	// The permission lines come from the fold, in the order things
	// happened; rejected counts the requests there was no one to ask.
	var rejected atomic.Int64
	perms := acpconn.Permissions{Policy: ao.Permissions, Rejected: func(model.PermissionRequest, string) { rejected.Add(1) }}
	s, err := startACP(opts, ao, args, perms, true)
	if err != nil {
		return err
	}
	printed := make(chan error, 1)
	go func() { printed <- printSession(opts.Stdout, fold.New(fo), s.conn.Records(), plainDefaults) }()
	stopReason, turnErr := "", handshake(ctx, s, ao)
	if turnErr == nil {
		stopReason, turnErr = s.conn.Prompt(ctx, ao.Prompt)
	}
	closeErr := s.close()
	var perr error
	select {
	case <-s.conn.Done(): // the records end: the printer finishes
		perr = <-printed
	default: // an agent that could not be stopped; closeErr says so
	}
	if n := rejected.Load(); n > 0 {
		what := "1 permission request was"
		if n > 1 {
			what = fmt.Sprintf("%d permission requests were", n)
		}
		fmt.Fprintf(opts.Stderr, "agentwatch: --plain cannot ask you, so %s rejected; --permissions allow-once or allow-always answers them\n", what)
	}
	switch {
	case closeErr != nil: // a recording that failed stopped the turn
		return BadInput(closeErr)
	case turnErr != nil:
		var ae *agentError
		if !errors.As(turnErr, &ae) {
			turnErr = &agentError{err: turnErr}
		}
		return &ProblemsError{Err: withStderr(turnErr, s)}
	case perr != nil:
		return perr
	}
	fmt.Fprintf(opts.Stdout, "turn ended: %s\n", stopReason)
	if stopReason != "end_turn" {
		return &ProblemsError{Err: fmt.Errorf("the turn ended with %s, not end_turn", stopReason)}
	}
	return nil
}

// printSession prints the lines of a session's records as they arrive,
// folded into f, until recs closes. A long turn keeps what its lines may
// still need (keep): the rest is shed as it goes. The first error writing
// is returned; the records are still taken to the end.
func printSession(w io.Writer, f *fold.Fold, recs <-chan []model.Record, keep plainLimits) error {
	printer := tui.NewPlainPrinter(w, f)
	var err error
	for b := range recs {
		u, _ := f.Apply(b...)
		if err == nil {
			err = printer.Print(u)
		}
		if keep.shed(f) {
			printer.Forget()
		}
	}
	if err == nil { // an agent that died mid-sentence: its last words
		err = printer.Finish()
	}
	return err
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
func (a *App) acpScreen(ctx context.Context, ao *ACPOptions, args []string, fo fold.Options) error {
	opts := a.Options
	ctl := &screenAgent{ctx: ctx}
	var progReady = make(chan struct{})
	perms := acpconn.Permissions{Policy: ao.Permissions, Ask: func(actx context.Context, req model.PermissionRequest) (string, bool) {
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
	appOpts := tui.AppOptions{Layout: opts.Layout, Images: opts.Images, Clipboard: localClipboard(), Title: strings.Join(args, " "),
		Window: window.Options{Recording: opts.Record}}
	if opts.Record != "" { // what the screen sheds is read back from the recording
		appOpts.Window.Reader = a.fileReaders(func(string) string { return opts.Record })
	}
	app := tui.NewAgentApp(fold.New(fo), recs, ctl, appOpts)
	prog := newProgram(app, opts, tea.WithContext(ctx))
	ctl.prog = prog
	close(progReady)
	go prog.Send(tea.RequestBackgroundColor())
	// startErr is a start that failed, said again once the screen is
	// gone; it is set before handshook closes. A start cut short because
	// the user quit is no failure.
	var (
		startErr     *agentError
		failed, quit atomic.Bool
		handshook    = make(chan struct{})
	)
	go func() {
		defer close(handshook)
		err := handshake(ctx, s, ao)
		var ae *agentError
		if errors.As(err, &ae) && ae.start {
			if quit.Load() {
				return
			}
			// An agent that could not start is stopped, so that its
			// standard error is whole when it is shown.
			failed.Store(true)
			s.conn.Close() // bounded: it returns once the agent is gone, or cannot be stopped
			startErr = ae
			withStderr(ae, s)
			prog.Send(ae.failedMsg())
			return
		}
		if err != nil {
			prog.Send(tui.TurnMsg{Err: err})
			return
		}
		if ao.Prompt != "" {
			ctl.Prompt(ao.Prompt)
		}
	}()
	go func() {
		<-s.conn.Done()
		if failed.Load() {
			return // the screen says why
		}
		if err := s.conn.ExitErr(); err != nil {
			prog.Send(tui.SourceStatusMsg("agent exited: " + err.Error()))
		} else {
			prog.Send(tui.SourceStatusMsg("agent exited"))
		}
	}()
	_, runErr := prog.Run()
	quit.Store(true)
	closeErr := s.close()
	if ao.StderrLog != "" {
		fmt.Fprintf(opts.Stderr, "agentwatch: the agent's standard error is in %s\n", ao.StderrLog)
	}
	if closeErr != nil {
		return BadInput(closeErr)
	}
	// The agent is gone, so the handshake has returned; a failed start is
	// said again, as the screen it was shown on is gone too.
	<-handshook
	if startErr != nil {
		return &ProblemsError{Err: startErr}
	}
	if opts.Record != "" {
		fmt.Fprintf(opts.Stderr, "agentwatch: recorded to %s (play it with: agentwatch replay %s)\n", opts.Record, opts.Record)
	}
	if runErr != nil && ctx.Err() == nil {
		return fmt.Errorf("screen: %w", runErr)
	}
	return nil
}
