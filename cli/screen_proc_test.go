package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// screenProc is the agentwatch binary running in a pseudo-terminal, as a
// person runs it, with a terminal emulator drawing what it writes: the
// screen a benchmark reads.
type screenProc struct {
	b     testing.TB
	cmd   *exec.Cmd
	tty   *os.File
	start time.Time
	ended chan struct{}

	mu   sync.Mutex
	term *vt.Emulator
}

// startScreen runs bin with args in dir, in a w×h terminal, with cache
// as its XDG_CACHE_HOME.
func startScreen(b testing.TB, bin, dir, cache string, w, h int, args ...string) *screenProc {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_CACHE_HOME="+cache)
	s := &screenProc{b: b, cmd: cmd, term: vt.NewEmulator(w, h), ended: make(chan struct{})}
	s.start = time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		b.Fatal(err)
	}
	s.tty = tty
	go func() {
		defer close(s.ended)
		buf := make([]byte, 64<<10)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				s.mu.Lock()
				s.term.Write(buf[:n])
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		// The emulator's answers to the program's queries are typed back.
		buf := make([]byte, 1024)
		for {
			n, err := s.term.Read(buf)
			if n > 0 {
				tty.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// screen is the text on the screen now.
func (s *screenProc) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.String()
}

// waitFor waits until the screen satisfies ok, and returns how long after
// the start it did; it fails the benchmark with the screen after limit.
func (s *screenProc) waitFor(what string, limit time.Duration, ok func(screen string) bool) time.Duration {
	s.b.Helper()
	deadline := time.Now().Add(limit)
	for {
		if ok(s.screen()) {
			return time.Since(s.start)
		}
		if time.Now().After(deadline) {
			s.b.Fatalf("the screen never showed %s in %v:\n%s", what, limit, s.screen())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// firstFrame waits for the first frame, and returns how long after the
// start it came.
func (s *screenProc) firstFrame() time.Duration {
	s.b.Helper()
	return s.waitFor("a first frame", 30*time.Second, func(sc string) bool {
		return strings.Contains(sc, "agent computer")
	})
}

// peakRSS is the process's peak resident memory in bytes so far (0 when
// the system does not say).
func (s *screenProc) peakRSS() int64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// quit presses q and waits for the program to end, killing it if it does
// not within 10 s.
func (s *screenProc) quit() { s.quitWith("q") }

// quitWith is quit by other keys (ctrl+c, "\x03", where a prompt line
// takes q).
func (s *screenProc) quitWith(keys string) {
	s.b.Helper()
	io.WriteString(s.tty, keys)
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-exited
		s.b.Errorf("%q did not end the program within 10 s", keys)
	}
	s.tty.Close()
	<-s.ended
	if pw, ok := s.term.InputPipe().(*io.PipeWriter); ok {
		pw.Close() // ends the answering goroutine
	}
}
