package acpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// MaxLineBytes is the length from which a line from the agent is not read:
// the ACP SDK reads a JSON-RPC message of at most 10 MiB less one byte
// (its line reader's buffer, fixed at 10 MiB), and ends the connection at
// a longer one.
const MaxLineBytes = 10 << 20

// ErrLineTooLong is why a session ended when the agent sent a message of
// MaxLineBytes or more.
var ErrLineTooLong = fmt.Errorf("the agent sent a message of %d MiB or more, which agentwatch does not read", MaxLineBytes>>20)

// Options configure a connection to an agent.
type Options struct {
	// Command is the agent program and its arguments.
	Command []string
	// Dir is the session folder: the agent's working directory, the cwd of
	// its sessions and the only place its fs and terminal requests reach.
	Dir string
	// AllowWrite advertises and serves fs/write_text_file.
	AllowWrite bool
	// AllowTerminal advertises and serves terminal/*.
	AllowTerminal bool
	// Stderr receives the agent's standard error (a log file: never the
	// screen), and the SDK's log lines. Nil discards them; the end of the
	// agent's is kept either way (StderrTail).
	Stderr io.Writer
	// Record, when set, receives every JSON-RPC line in both directions as
	// an ACP recording (protocol/acp.FormatLine).
	Record io.Writer
	// Permissions decides permission requests.
	Permissions Permissions
	// Now stamps lines; nil is time.Now.
	Now func() time.Time

	// handlerDelay slows the update handler, for tests of the gate.
	handlerDelay time.Duration
}

// Conn is a running agent and the ACP connection to it.
type Conn struct {
	opts    Options
	proc    *agentProcess
	conn    *sdk.ClientSideConnection
	journal *journal
	records chan []model.Record
	folder  *Folder
	terms   *Terminals
	perms   *permissions
	gate    *gate
	stderr  *stderrTail

	exited  chan struct{}
	exitErr error

	stopOnce sync.Once
	stopped  bool // the session ended while stop ran

	// tooLong is set when the agent sent a line the SDK does not read,
	// before the SDK sees the end of it.
	tooLong atomic.Bool

	mu        sync.Mutex
	sessionID string
}

// Start spawns the agent and connects to it; nothing is sent until
// Initialize.
func Start(opts Options) (*Conn, error) {
	if len(opts.Command) == 0 {
		return nil, errors.New("no agent command")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	folder, err := NewFolder(opts.Dir)
	if err != nil {
		return nil, err
	}
	started := false
	defer func() {
		if !started {
			folder.Close()
		}
	}()
	// The agent's stderr and the SDK's log share the log: one at a time.
	// Only the agent's own words go to the tail.
	log := &syncWriter{w: opts.Stderr}
	if opts.Stderr == nil {
		log.w = io.Discard
	}
	tail := &stderrTail{}
	proc, err := startProcess(opts.Command, folder.Root(), stderrWriter{tail: tail, log: log})
	if err != nil {
		return nil, err
	}
	started = true
	c := &Conn{opts: opts, proc: proc, folder: folder, terms: NewTerminals(folder), stderr: tail,
		journal: newJournal(opts.Now, opts.Record), records: make(chan []model.Record, 64),
		perms: newPermissions(opts.Permissions), exited: make(chan struct{})}
	c.gate = newGate()
	ready := make(chan struct{})
	out := &teeReader{r: proc.stdout, gate: c.gate, ready: ready, split: lineSplitter{emit: func(l []byte) {
		if c.journal.add(acp.Recv, l) {
			c.gate.sent()
		}
	}, max: MaxLineBytes, tooLong: func() { c.tooLong.Store(true) }}}
	in := &teeWriter{w: proc.stdin, split: lineSplitter{emit: func(l []byte) { c.journal.add(acp.Send, l) }}}
	c.conn = sdk.NewClientSideConnection((*handler)(c), in, out)
	// The SDK logs through slog's default (standard error, under the
	// screen); its notes go with the agent's own.
	c.conn.SetLogger(slog.New(slog.NewTextHandler(log, nil)))
	close(ready)
	go c.journal.pump(c.records)
	go func() {
		<-c.conn.Done() // the agent's output ended, or is no longer read
		c.gate.close()
		// Nothing reads the agent's output any more: an agent still
		// writing it learns so at once rather than blocking.
		proc.stdout.Close()
		grace := eofGrace
		if c.tooLong.Load() {
			grace = 0 // the session is over, whatever the agent does
		}
		select {
		case <-proc.exited:
		case <-time.After(grace):
			// It lives on, talking to no one: stop it. Close may be
			// stopping it already; the second stop waits for the first.
			go c.stop()
		}
		<-proc.exited
		proc.finish()
		c.exitErr = proc.err
		if c.tooLong.Load() {
			c.exitErr = fmt.Errorf("%w, so it was stopped", ErrLineTooLong)
		}
		c.perms.cancelAll()
		c.terms.Close()
		c.folder.Close()
		c.journal.close()
		close(c.exited)
	}()
	return c, nil
}

// Records delivers every JSON-RPC line in both directions, batched, in the
// order they crossed; it closes after the agent's output ends.
func (c *Conn) Records() <-chan []model.Record { return c.records }

// Done is closed when the agent has exited and every line was delivered
// to the journal.
func (c *Conn) Done() <-chan struct{} { return c.exited }

// ExitErr is how the agent process ended (after Done), or why agentwatch
// ended it (ErrLineTooLong).
func (c *Conn) ExitErr() error { return c.exitErr }

// StderrTail is the last lines (at most StderrLines) the agent wrote on
// its standard error, as it wrote them: untrusted text, to be made safe
// before it is shown. After Done it holds everything the agent wrote.
func (c *Conn) StderrTail() []string { return c.stderr.lines(StderrLines) }

// RecordErr is the first error writing the recording hit, if any.
func (c *Conn) RecordErr() error { return c.journal.recordErr() }

// Close ends the agent and waits until it has: its input is closed, and
// if it does not exit, its process group is sent SIGTERM, then SIGKILL
// (see agentProcess.stop). It never waits longer than those steps allow;
// an agent that outlasts them all is reported, not waited for.
func (c *Conn) Close() error {
	select {
	case <-c.exited:
		return nil
	default:
	}
	if !c.stop() {
		return errNotEnded(c.proc)
	}
	return nil
}

// stop runs the steps that end the agent once, until the session ended;
// a second caller waits for the first.
func (c *Conn) stop() bool {
	c.stopOnce.Do(func() { c.stopped = c.proc.stop(c.exited) })
	return c.stopped
}

// Session is the session the connection works in.
func (c *Conn) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

func (c *Conn) setSession(id string) {
	c.mu.Lock()
	c.sessionID = id
	c.mu.Unlock()
}

// Initialize negotiates ACP v1, advertising what the options allow and
// asking adapters to stream command output (_meta.terminal_output).
func (c *Conn) Initialize(ctx context.Context) (sdk.InitializeResponse, error) {
	resp, err := c.conn.Initialize(ctx, sdk.InitializeRequest{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{
			Fs:       sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: c.opts.AllowWrite},
			Terminal: c.opts.AllowTerminal,
			Meta:     map[string]any{"terminal_output": true},
		},
		ClientInfo: &sdk.Implementation{Name: "agentwatch", Version: "dev"},
	})
	if err != nil {
		return resp, c.explain("initialize", err)
	}
	if resp.ProtocolVersion != sdk.ProtocolVersionNumber {
		return resp, fmt.Errorf("the agent speaks ACP version %d; agentwatch speaks %d", resp.ProtocolVersion, sdk.ProtocolVersionNumber)
	}
	return resp, nil
}

// Authenticate logs in with one of the methods the agent offered.
func (c *Conn) Authenticate(ctx context.Context, methodID string) error {
	_, err := c.conn.Authenticate(ctx, sdk.AuthenticateRequest{MethodId: methodID})
	return c.explain("authenticate", err)
}

// NewSession starts a session in the session folder.
func (c *Conn) NewSession(ctx context.Context) (sdk.NewSessionResponse, error) {
	resp, err := c.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: c.folder.Root(), McpServers: []sdk.McpServer{}})
	if err != nil {
		return resp, c.explain("session/new", err)
	}
	c.setSession(string(resp.SessionId))
	return resp, nil
}

// LoadSession asks the agent to replay session id; its history arrives as
// session/update lines before and, with some agents, after the answer.
func (c *Conn) LoadSession(ctx context.Context, id string) error {
	c.setSession(id)
	_, err := c.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: c.folder.Root(), McpServers: []sdk.McpServer{}})
	return c.explain("session/load", err)
}

// ListSessions lists the agent's sessions for the session folder.
func (c *Conn) ListSessions(ctx context.Context) ([]sdk.SessionInfo, error) {
	var all []sdk.SessionInfo
	req := sdk.ListSessionsRequest{Cwd: sdk.Ptr(c.folder.Root())}
	for range 100 { // pages
		resp, err := c.conn.ListSessions(ctx, req)
		if err != nil {
			return all, c.explain("session/list", err)
		}
		all = append(all, resp.Sessions...)
		if resp.NextCursor == nil || *resp.NextCursor == "" {
			break
		}
		req.Cursor = resp.NextCursor
	}
	return all, nil
}

// Prompt sends text as a prompt and waits for the turn to end; it returns
// the stop reason. Cancel ends a turn early: Prompt then returns
// "cancelled" when the agent says so. ctx only bounds the wait.
func (c *Conn) Prompt(ctx context.Context, text string) (string, error) {
	resp, err := c.conn.Prompt(ctx, sdk.PromptRequest{SessionId: sdk.SessionId(c.Session()), Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		return "", c.explain("session/prompt", err)
	}
	return string(resp.StopReason), nil
}

// Cancel asks the agent to stop the current turn and answers every
// permission request still waiting with "cancelled", as ACP asks.
func (c *Conn) Cancel(ctx context.Context) error {
	c.perms.cancelAll()
	return c.explain("session/cancel", c.conn.Cancel(ctx, sdk.CancelNotification{SessionId: sdk.SessionId(c.Session())}))
}

// SetMode switches the session's mode.
func (c *Conn) SetMode(ctx context.Context, modeID string) error {
	_, err := c.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sdk.SessionId(c.Session()), ModeId: sdk.SessionModeId(modeID)})
	return c.explain("session/set_mode", err)
}

// explain words an error of a call, naming the agent's exit when it died.
// A line too long to read comes first: the SDK then ends every call with
// an internal error (-32603) that reads as if the agent had sent it.
func (c *Conn) explain(call string, err error) error {
	if err == nil {
		return nil
	}
	if c.tooLong.Load() {
		return fmt.Errorf("%s: %w; the session ended", call, ErrLineTooLong)
	}
	select {
	case <-c.exited:
		if c.exitErr != nil {
			return fmt.Errorf("%s: the agent exited (%v)", call, c.exitErr)
		}
		return fmt.Errorf("%s: the agent exited", call)
	case <-time.After(50 * time.Millisecond): // a dying agent's pipe closes first
	}
	var re *sdk.RequestError
	if errors.As(err, &re) {
		if re.Code == -32000 {
			return fmt.Errorf("%s: the agent needs authentication first (%s)", call, re.Message)
		}
		return fmt.Errorf("%s: the agent answered error %d: %s", call, re.Code, re.Message)
	}
	return fmt.Errorf("%s: %w", call, err)
}

// syncWriter serialises writes from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
