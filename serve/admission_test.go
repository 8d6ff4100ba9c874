package serve

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// closedAtOnce reports whether the server closed conn without sending a
// byte (no key exchange was begun for it) within a second.
func closedAtOnce(t *testing.T, conn net.Conn) bool {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(time.Second))
	n, err := conn.Read(make([]byte, 64))
	return n == 0 && err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}

// rawConn is a TCP connection to the server that says nothing.
func rawConn(t *testing.T, ts *testServer) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", ts.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Connections over --max-sessions, watching or logging in, are closed at
// once, before any key exchange; a flood of them leaves a viewer's screen
// going and the log a line a second.
func TestConnectionsOverTheCapClosedAtOnce(t *testing.T) {
	ts := startShow(t, busyShow{}, Config{MaxSessions: 2}, nil)
	watching := ts.view(t, ts.allowed, 100, 30)
	watching.waitFor("frame ")

	// Two connections that never log in take both places to log in, but
	// not the seat left: the viewer that logged in holds no place.
	slow1, slow2 := rawConn(t, ts), rawConn(t, ts)
	if closedAtOnce(t, slow1) || closedAtOnce(t, slow2) {
		t.Fatal("a connection logging in was closed while there was room")
	}
	if !closedAtOnce(t, rawConn(t, ts)) {
		t.Error("a third connection logging in, past --max-sessions 2, was let start")
	}
	slow1.Close()
	// The server frees slow1's place once it sees it closed.
	var client *gossh.Client
	for deadline := time.Now().Add(waitLimit); client == nil; time.Sleep(10 * time.Millisecond) {
		c, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
		if err == nil {
			client = c
		} else if time.Now().After(deadline) {
			t.Fatalf("the place slow1 held was never freed: %v", err)
		}
	}
	second := openView(t, client, "xterm-256color", 80, 24)
	second.waitFor("frame ")

	// Every seat is taken: a flood is closed at once, and the screens go on.
	before := frameShown(watching)
	for range 200 {
		if !closedAtOnce(t, rawConn(t, ts)) {
			t.Fatal("a connection past --max-sessions was let start")
		}
	}
	after := frameShown(watching)
	t.Logf("the watching screen drew frames %d to %d during the flood", before, after)
	for deadline := time.Now().Add(waitLimit); frameShown(watching) <= before+10; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the watching screen stopped at frame %d", before)
		}
	}
	if n := strings.Count(ts.log.String(), "closed at once"); n > 20 {
		t.Errorf("the log has %d lines of connections closed at once for 200 connections", n)
	}
}

// stuckSigner is a key whose signature never comes: a client holding it
// asks whether the key would do, and then waits.
type stuckSigner struct {
	gossh.Signer
	asked   chan struct{}
	release chan struct{}
}

func (s stuckSigner) Sign(rand io.Reader, data []byte) (*gossh.Signature, error) {
	close(s.asked)
	<-s.release
	return nil, errors.New("no signature")
}

// A client that has only asked whether a listed public key would do (which
// anyone may, public keys being public) still counts as logging in.
func TestKeyQueryStillLoggingIn(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{MaxSessions: 1})
	stuck := stuckSigner{Signer: ts.allowed, asked: make(chan struct{}), release: make(chan struct{})}
	defer close(stuck.release)
	go ts.dial("viewer", gossh.PublicKeys(stuck))
	select {
	case <-stuck.asked:
	case <-time.After(waitLimit):
		t.Fatal("the client never got to sign")
	}
	if !closedAtOnce(t, rawConn(t, ts)) {
		t.Error("a connection was let start while another, which only asked about a key, was logging in")
	}
}
