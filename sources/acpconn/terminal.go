package acpconn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultOutputLimit caps a terminal's kept output when the agent sets no
// outputByteLimit.
const DefaultOutputLimit = 1 << 20

// Terminals runs the commands an agent asks for through terminal/*, each in
// the session folder (or a folder inside it), keeping at most the agent's
// outputByteLimit of output: the newest bytes, cut at a character boundary
// as ACP asks.
type Terminals struct {
	folder *Folder
	mu     sync.Mutex
	next   int
	terms  map[string]*terminal
}

// NewTerminals serves terminals confined to folder.
func NewTerminals(folder *Folder) *Terminals {
	return &Terminals{folder: folder, terms: map[string]*terminal{}}
}

type terminal struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	out   []byte
	limit int
	trunc bool
	done  chan struct{}
	exit  ExitStatus
}

// ExitStatus is how a terminal's command ended.
type ExitStatus struct {
	Code   *int
	Signal *string
}

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out = append(t.out, p...)
	if over := len(t.out) - t.limit; over > 0 {
		cut := over
		for cut < len(t.out) && !utf8.RuneStart(t.out[cut]) {
			cut++
		}
		t.out = append(t.out[:0], t.out[cut:]...)
		t.trunc = true
	}
	return len(p), nil
}

// Create starts command with args and env in cwd (the session folder when
// empty) and returns its terminal id.
func (ts *Terminals) Create(command string, args []string, env map[string]string, cwd string, limit int) (string, error) {
	dir := ts.folder.Root()
	if cwd != "" {
		real, err := ts.folder.resolve(cwd)
		if err != nil {
			return "", fmt.Errorf("terminal cwd: %w", err)
		}
		dir = real
	}
	if limit <= 0 {
		limit = DefaultOutputLimit
	}
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	t := &terminal{cmd: cmd, limit: limit, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = t, t
	// The command leads a group of its own, which Kill ends whole: a
	// child it started would otherwise outlive it, holding its output open.
	ownGroup(cmd)
	cmd.WaitDelay = terminalWaitDelay
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go func() {
		err := cmd.Wait()
		t.mu.Lock()
		var ee *exec.ExitError
		switch {
		case err == nil:
			t.exit.Code = new(0)
		case errors.As(err, &ee):
			if ws, ok := ee.Sys().(interface{ Signaled() bool }); ok && ws.Signaled() {
				sig := ee.ProcessState.String()
				t.exit.Signal = &sig
			} else {
				t.exit.Code = new(ee.ExitCode())
			}
		}
		t.mu.Unlock()
		close(t.done)
	}()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.next++
	id := "term-" + strconv.Itoa(ts.next)
	ts.terms[id] = t
	return id, nil
}

func (ts *Terminals) get(id string) (*terminal, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.terms[id]
	if t == nil {
		return nil, fmt.Errorf("no terminal %q", id)
	}
	return t, nil
}

// Output returns what the terminal printed so far (within its limit),
// whether older output was dropped, and its exit status once it ended.
func (ts *Terminals) Output(id string) (string, bool, *ExitStatus, error) {
	t, err := ts.get(id)
	if err != nil {
		return "", false, nil, err
	}
	var st *ExitStatus
	select {
	case <-t.done:
		st = &t.exit
	default:
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.out), t.trunc, st, nil
}

// WaitForExit waits for the command to end.
func (ts *Terminals) WaitForExit(ctx context.Context, id string) (ExitStatus, error) {
	t, err := ts.get(id)
	if err != nil {
		return ExitStatus{}, err
	}
	select {
	case <-t.done:
		return t.exit, nil
	case <-ctx.Done():
		return ExitStatus{}, ctx.Err()
	}
}

// Kill stops the command; the terminal stays readable.
func (ts *Terminals) Kill(id string) error {
	t, err := ts.get(id)
	if err != nil {
		return err
	}
	select {
	case <-t.done:
		return nil
	default:
	}
	signalGroup(t.cmd.Process, kill)
	return nil
}

// terminalWaitDelay is how long a terminal whose command ended waits for
// what it started (and left running outside its group) to let go of its
// output, before it says the command ended.
const terminalWaitDelay = 2 * time.Second

// Release kills the command if it still runs and forgets the terminal.
func (ts *Terminals) Release(id string) error {
	if err := ts.Kill(id); err != nil {
		return err
	}
	ts.mu.Lock()
	delete(ts.terms, id)
	ts.mu.Unlock()
	return nil
}

// Close kills every terminal still running.
func (ts *Terminals) Close() {
	ts.mu.Lock()
	ids := make([]string, 0, len(ts.terms))
	for id := range ts.terms {
		ids = append(ids, id)
	}
	ts.mu.Unlock()
	for _, id := range ids {
		_ = ts.Release(id)
	}
}
