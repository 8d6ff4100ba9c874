package app

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// acpOnScreen runs `acp -- agent` on the screen, in a pseudo-terminal that
// a terminal emulator draws; it returns what the screen shows, a way to
// type, and ACP's result.
func acpOnScreen(t *testing.T, agent []string) (screen func() string, typed io.Writer, done <-chan error) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	term := vt.NewEmulator(100, 30)
	t.Cleanup(func() {
		// Ends the answering goroutine: Close would race with its Read.
		if pw, ok := term.InputPipe().(*io.PipeWriter); ok {
			pw.Close()
		}
	})
	var mu sync.Mutex
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			term.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	keys, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	go func() {
		// The emulator answers the program's queries, as a terminal types.
		buf := make([]byte, 1024)
		for {
			n, err := term.Read(buf)
			if n > 0 {
				w.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	opts := &Options{Stdin: keys, Stdout: tty, Stderr: io.Discard, Layout: "auto", Images: "off"}
	ao := &ACPOptions{Cwd: t.TempDir(), Pace: time.Millisecond}
	result := make(chan error, 1)
	go func() { result <- New(opts).ACP(ao, agent) }()
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return term.String()
	}, w, result
}

// waitResult is ACP's result, failing t when it does not come.
func waitResult(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the screen did not end")
	}
	return nil
}

// An agent that exits at once shows, on the screen, that it failed to
// start, why, and the last lines of its standard error with their escape
// sequences gone; once the screen is quit the same is said on the terminal.
func TestACPScreenShowsFailedStart(t *testing.T) {
	agent := []string{"sh", "-c", `echo "starting up" >&2; printf '\033[31mfatal:\033[0m no API key\033]0;pwned\007 set\n' >&2; exit 3`}
	screen, typed, done := acpOnScreen(t, agent)
	deadline := time.Now().Add(20 * time.Second)
	// Not "no API key": the title bar shows the command, which says it.
	for !strings.Contains(screen(), "fatal: no API key set") {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed the failure:\n%s", screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	sc := screen()
	for _, want := range []string{"✗ agent failed to start: initialize: the agent exited (exit status 3)", "agent stderr:", "starting up", "fatal: no API key set"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the screen lacks %q:\n%s", want, sc)
		}
	}
	_, below, _ := strings.Cut(sc, "agent stderr:") // the title bar shows the command itself
	if strings.Contains(below, "pwned") || strings.Contains(sc, "turn ended") {
		t.Errorf("the screen shows what it must not:\n%s", sc)
	}
	io.WriteString(typed, "\x03") // ctrl+c
	err := waitResult(t, done)
	var problems *ProblemsError
	if !errors.As(err, &problems) {
		t.Fatalf("ACP returned %v, want the failed start", err)
	}
	want := "agent failed to start: initialize: the agent exited (exit status 3)\nagent stderr:\n  starting up\n  fatal: no API key set"
	if msg := err.Error(); msg != want {
		t.Errorf("after the screen:\n%s\nwant\n%s", msg, want)
	}
}

// Quitting while a slow agent is still starting is no failure of its.
func TestACPScreenQuitWhileStarting(t *testing.T) {
	t.Parallel()
	screen, typed, done := acpOnScreen(t, []string{"sh", "-c", "exec sleep 30"})
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(screen(), "ask the agent") {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never came:\n%s", screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	io.WriteString(typed, "\x03")
	if err := waitResult(t, done); err != nil {
		t.Errorf("quitting while the agent starts: %v", err)
	}
}
