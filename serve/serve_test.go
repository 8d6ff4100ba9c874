package serve

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
)

// An allowed key gets the screen, the demo playing; a window change
// lays it out again for the new size.
func TestAllowedKeySeesTheScreen(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	v := ts.view(t, ts.allowed, 160, 48)
	v.waitFor("transcript · the embedded demo", "agent computer", "q quit")
	first := strings.SplitN(v.screen(), "\n", 2)[0]
	if !strings.Contains(first, "agent computer") {
		t.Fatalf("at 160 columns the computer is beside the transcript; the first line is %q", first)
	}
	v.resize(90, 30)
	v.waitFor("q quit")
	deadline := time.Now().Add(waitLimit)
	for strings.Contains(strings.SplitN(v.screen(), "\n", 2)[0], "agent computer") {
		if time.Now().After(deadline) {
			t.Fatalf("at 90 columns the computer should be a sheet below; the screen shows:\n%s", v.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(ts.log.String(), gossh.FingerprintSHA256(ts.allowed.PublicKey())+" (user viewer) from 127.0.0.1:") {
		t.Errorf("the log does not name the viewer's key and address:\n%s", ts.log)
	}
}

// A key not in the allowlist, a password and keyboard-interactive are
// all refused before any session.
func TestRefusedLogins(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	if c, err := ts.dial("viewer", gossh.PublicKeys(ts.stranger)); err == nil {
		c.Close()
		t.Error("a key that is not listed got in")
	}
	if c, err := ts.dial("viewer", gossh.Password("hunter2")); err == nil {
		c.Close()
		t.Error("a password got in")
	}
	answer := func(string, string, []string, []bool) ([]string, error) { return []string{"hunter2"}, nil }
	if c, err := ts.dial("viewer", gossh.KeyboardInteractive(answer)); err == nil {
		c.Close()
		t.Error("keyboard-interactive got in")
	}
	log := ts.log.String()
	if !strings.Contains(log, gossh.FingerprintSHA256(ts.stranger.PublicKey())+" from 127.0.0.1:") || !strings.Contains(log, "refused: not in") {
		t.Errorf("the refused key is not in the log:\n%s", log)
	}
}

// Two viewers on one growing log both see a step appended after they
// connected; one viewer's ←/→ moves its own selection only; a viewer
// that quits leaves the other watching, and the server takes new ones.
func TestViewersShareOneGrowingLog(t *testing.T) {
	dir := t.TempDir()
	log := newGrowingLog(t, dir, 3)
	ts := startServer(t, []string{log.path}, ShowOptions{}, Config{})
	a := ts.view(t, ts.allowed, 160, 48)
	b := ts.view(t, ts.allowed, 160, 48)
	a.waitFor(stepOf(3, 3), "probe-3")
	b.waitFor(stepOf(3, 3), "probe-3")

	log.add(1)
	a.waitFor(stepOf(4, 4), "echo probe-4")
	b.waitFor(stepOf(4, 4), "echo probe-4")
	if n := opened(t, log.path); n > 1 {
		t.Errorf("the log is open %d times for two viewers; a source is read once", n)
	}

	a.send(keyLeft)
	a.send(keyLeft)
	a.waitFor(stepOf(2, 4))
	// b handles a key of its own after a's: had a's keys reached b, its
	// screen would show it by then.
	b.send("?")
	b.waitFor("Keys ·")
	b.send(keyEsc)
	b.waitFor(stepOf(4, 4)) // fails, showing b's screen, if a's ← moved b
	a.send(keyRight)
	a.waitFor(stepOf(3, 4))

	a.send("q")
	if code := a.waitEnd(); code != 0 {
		t.Errorf("q ended a's session with status %d, want 0", code)
	}
	log.add(1)
	b.waitFor(stepOf(5, 5), "echo probe-5")
	c := ts.view(t, ts.allowed, 100, 30)
	c.waitFor(stepOf(5, 5))
	if !strings.Contains(ts.log.String(), "left after") {
		t.Errorf("a's departure is not in the log:\n%s", ts.log)
	}
}

// A session without a terminal gets one line saying why, and ends.
func TestSessionWithoutTerminal(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out syncbuf.Buffer
	sess.Stdout, sess.Stderr = &out, &out
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	err = sess.Wait()
	if exit, ok := err.(*gossh.ExitError); !ok || exit.ExitStatus() != 1 {
		t.Errorf("the session ended with %v, want exit status 1", err)
	}
	got := strings.TrimSpace(out.String())
	if got != "agentwatch serve shows a screen and needs a terminal: connect with ssh -t" {
		t.Errorf("the session said %q", got)
	}
}

// A session that asks to run a command is refused, terminal or not, and
// told why on its error stream.
func TestSessionWithCommand(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	stderr, err := sess.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("cat /etc/passwd"); err == nil {
		t.Fatal("the command was let run")
	}
	said, _ := bufio.NewReader(stderr).ReadString('\n')
	if !strings.Contains(said, "runs no commands") {
		t.Errorf("the session said %q", said)
	}
}

// Past --max-sessions a connection is closed at once, and the log says
// why; once a viewer leaves, the next gets in.
func TestMaxSessions(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{MaxSessions: 1})
	a := ts.view(t, ts.allowed, 80, 24)
	a.waitFor("space pause")
	if c, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed)); err == nil {
		c.Close()
		t.Fatal("a second viewer got in past --max-sessions 1")
	}
	if log := ts.log.String(); !strings.Contains(log, "closed at once: 1 viewers are watching, as many as --max-sessions") {
		t.Errorf("the log does not say why the second viewer was closed:\n%s", log)
	}
	a.send("q")
	a.waitEnd()
	for deadline := time.Now().Add(waitLimit); !strings.Contains(ts.log.String(), "left after"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first viewer never left; the log says:\n%s", ts.log)
		}
	}
	c := ts.view(t, ts.allowed, 80, 24)
	c.waitFor("space pause")
}

// A viewer that sends nothing for --idle-timeout is told so and closed.
func TestIdleTimeout(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{IdleTimeout: 300 * time.Millisecond})
	v := ts.view(t, ts.allowed, 80, 24)
	if code := v.waitEnd(); code != 1 {
		t.Errorf("the idle session ended with %d, want 1", code)
	}
	<-v.ended
	if got := v.stderr.String(); !strings.Contains(got, "nothing from you for 300ms") {
		t.Errorf("the idle viewer was told %q", got)
	}
}

// What a client chose (its user name) reaches the log without its escape
// sequences.
func TestLogIsSafeForTheTerminal(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	c, err := ts.dial("eve\x1b]0;owned\x07\x1b[2J", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.Shell()
	sess.Wait()
	c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for !strings.Contains(ts.log.String(), "left after") && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	log := ts.log.String()
	if strings.ContainsAny(log, "\x1b\x07") {
		t.Errorf("the log holds escape sequences: %q", log)
	}
	if !strings.Contains(log, "(user eve) from") {
		t.Errorf("the log does not name the user safely:\n%s", log)
	}
}

// Viewers of the demo each have a player of their own: one pausing and
// seeking leaves the other playing.
func TestDemoPlayersAreApart(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	a := ts.view(t, ts.allowed, 160, 48)
	b := ts.view(t, ts.allowed, 160, 48)
	a.waitFor("▶ 1×")
	b.waitFor("▶ 1×")
	a.send(" ")
	a.waitFor("❚❚ 1×")
	a.send("5")
	a.waitFor("413/840")
	b.send("+")
	b.waitFor("▶ 2×") // still playing, at its own speed
}

// opened counts this process's open files that are path (Linux: the
// links in /proc/self/fd); the test is skipped where there is no /proc.
func opened(t *testing.T, path string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot list open files: %v", err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			n++
		}
	}
	return n
}
