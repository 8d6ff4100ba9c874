package serve

// This file holds what the tests need to be a testViewer: keys, a running
// server, and an SSH client whose screen is a terminal emulator.

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
)

// waitLimit is how long a test waits for what it expects before failing.
const waitLimit = 30 * time.Second

// newSigner is a fresh ed25519 key pair.
func newSigner(t testing.TB) gossh.Signer {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testServer is a server on a loopback port with a host key and an
// allowlist in a temporary folder: allowed is listed, stranger is not.
type testServer struct {
	*Server
	dir               string
	allowed, stranger gossh.Signer
	log               *syncbuf.Buffer
}

// startServer serves what args name (as agentwatch serve ARGS would) on
// 127.0.0.1:0; cfg may set the limits. It stops when the test ends.
func startServer(t testing.TB, args []string, so ShowOptions, cfg Config) *testServer {
	return startServerWith(t, args, so, cfg, nil)
}

// startServerWith is startServer with set called on the server before
// it serves.
func startServerWith(t testing.TB, args []string, so ShowOptions, cfg Config, set func(*Server)) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts := &app.Options{Layout: "auto", Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	show, err := OpenShow(ctx, app.New(opts), args, so)
	if err != nil {
		t.Fatal(err)
	}
	return startShow(t, show, cfg, set)
}

// startShow serves show on 127.0.0.1:0, as startServerWith does.
func startShow(t testing.TB, show Show, cfg Config, set func(*Server)) *testServer {
	t.Helper()
	ts := &testServer{dir: t.TempDir(), allowed: newSigner(t), stranger: newSigner(t), log: &syncbuf.Buffer{}}
	keys := filepath.Join(ts.dir, "authorized_keys")
	line := gossh.MarshalAuthorizedKey(ts.allowed.PublicKey())
	if err := os.WriteFile(keys, append([]byte("# viewers\n"), line...), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.Listen = "127.0.0.1:0"
	cfg.HostKey = filepath.Join(ts.dir, "host_key")
	cfg.AuthorizedKeys = keys
	cfg.Log = ts.log
	s, err := newServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.Server = s
	if set != nil {
		set(s)
	}
	if err := s.listen(); err != nil {
		t.Fatal(err)
	}
	go s.serve(show)
	t.Cleanup(func() { s.Close() })
	return ts
}

// dial logs in to the server with auth.
func (ts *testServer) dial(user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", ts.Addr().String(), &gossh.ClientConfig{
		User:            user,
		Auth:            auth,
		HostKeyCallback: gossh.FixedHostKey(ts.HostKey()),
		Timeout:         waitLimit,
	})
}

// testViewer is an SSH client with a terminal: what the server sends is drawn
// by a terminal emulator, whose answers to the screen's questions go back
// as a real terminal's would.
type testViewer struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer
	inMu   sync.Mutex

	mu   sync.Mutex
	term *vt.Emulator
	// ended is closed when the server closes the session's output.
	ended chan struct{}
	// stderr is what the server said on the session's error stream.
	stderr syncbuf.Buffer
}

// view logs in with signer and opens a session with a w×h terminal.
func (ts *testServer) view(t testing.TB, signer gossh.Signer, w, h int) *testViewer {
	t.Helper()
	return ts.viewWith(t, signer, "xterm-256color", w, h)
}

// viewWith is view with the terminal type (TERM) the client names.
func (ts *testServer) viewWith(t testing.TB, signer gossh.Signer, term string, w, h int) *testViewer {
	t.Helper()
	client, err := ts.dial("viewer", gossh.PublicKeys(signer))
	if err != nil {
		t.Fatal(err)
	}
	return openView(t, client, term, w, h)
}

// openView opens a session with a term w×h terminal on a client that
// logged in, and closes the client when the test ends.
func openView(t testing.TB, client *gossh.Client, term string, w, h int) *testViewer {
	t.Helper()
	t.Cleanup(func() { client.Close() })
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty(term, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	v := &testViewer{t: t, client: client, sess: sess, stdin: stdin, term: vt.NewEmulator(w, h), ended: make(chan struct{})}
	sess.Stderr = &v.stderr
	go func() {
		defer close(v.ended)
		buf := make([]byte, 32<<10)
		for {
			n, err := stdout.Read(buf)
			if n > 0 {
				v.mu.Lock()
				v.term.Write(buf[:n])
				v.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		// The emulator's answers (background colour, modes) are typed back.
		buf := make([]byte, 1024)
		for {
			n, err := v.term.Read(buf)
			if n > 0 {
				v.send(string(buf[:n]))
			}
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Ends the answering goroutine (Close would race with its Read).
		if pw, ok := v.term.InputPipe().(*io.PipeWriter); ok {
			pw.Close()
		}
	})
	return v
}

// send types keys as the terminal would send them.
func (v *testViewer) send(keys string) {
	v.inMu.Lock()
	defer v.inMu.Unlock()
	io.WriteString(v.stdin, keys)
}

// The keys the tests press, as an xterm sends them.
const (
	keyLeft  = "\x1b[D"
	keyRight = "\x1b[C"
	keyDown  = "\x1b[B"
	keyUp    = "\x1b[A"
	keyEsc   = "\x1b"
	keyHome  = "\x1b[H"
)

// screen is the text on the testViewer's screen now.
func (v *testViewer) screen() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.term.String()
}

// waitFor waits until the screen shows every one of texts, and fails the
// test with the screen if it never does.
func (v *testViewer) waitFor(texts ...string) {
	v.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := v.screen()
		missing := ""
		for _, text := range texts {
			if !strings.Contains(s, text) {
				missing = text
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			v.t.Fatalf("the screen never showed %q; it shows:\n%s", missing, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pressUntil sends keys, one at a time with a pause after each, until the
// screen shows text, ten times at most, and reports whether it did.
func (v *testViewer) pressUntil(text string, keys ...string) bool {
	for range 10 {
		for _, k := range keys {
			v.send(k)
			time.Sleep(100 * time.Millisecond)
		}
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if strings.Contains(v.screen(), text) {
				return true
			}
		}
	}
	return false
}

// resize tells the server the terminal is now w×h.
func (v *testViewer) resize(w, h int) {
	v.t.Helper()
	v.mu.Lock()
	v.term.Resize(w, h)
	v.mu.Unlock()
	v.windowChange(w, h)
}

// growTo tells the server the terminal is now w×h, and makes the emulator
// that size only when it grows: the emulator draws what a terminal of the
// largest size so far shows (shrinking it while output is on its way
// trips it up, and what it shows then is not what was sent).
func (v *testViewer) growTo(w, h int) {
	v.t.Helper()
	v.mu.Lock()
	if ew, eh := v.term.Width(), v.term.Height(); w > ew || h > eh {
		v.term.Resize(max(w, ew), max(h, eh))
	}
	v.mu.Unlock()
	v.windowChange(w, h)
}

// windowChange tells the server the terminal is now w×h.
func (v *testViewer) windowChange(w, h int) {
	v.t.Helper()
	if err := v.sess.WindowChange(h, w); err != nil {
		v.t.Fatal(err)
	}
}

// waitEnd waits for the server to end the session and returns its exit
// status.
func (v *testViewer) waitEnd() int {
	v.t.Helper()
	done := make(chan error, 1)
	go func() { done <- v.sess.Wait() }()
	select {
	case err := <-done:
		var exit *gossh.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &exit):
			return exit.ExitStatus()
		}
		v.t.Fatalf("session ended without a status: %v", err)
	case <-time.After(waitLimit):
		v.t.Fatalf("the session did not end; the screen shows:\n%s", v.screen())
	}
	return -1
}
