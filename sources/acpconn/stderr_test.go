package acpconn

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// The tail keeps the end of the agent's stderr by lines: blank lines
// skipped, a carriage return ending a line, a line cut by what was dropped
// left out.
func TestStderrTail(t *testing.T) {
	var tl stderrTail
	tl.Write([]byte("one\n\n  \ntwo\rthree"))
	tl.Write([]byte("\nfour\n"))
	if got := tl.lines(3); !slices.Equal(got, []string{"two", "three", "four"}) {
		t.Errorf("lines %q", got)
	}
	long := strings.Repeat("x", stderrKeep-10) + "\nlast\n"
	tl.Write([]byte("cut off\n"))
	tl.Write([]byte(long))
	if got := tl.lines(5); len(got) != 2 || got[1] != "last" || strings.Contains(got[0], "off") {
		t.Errorf("after a long write: %d lines, the last %q", len(got), got[len(got)-1])
	}
	tl.Write([]byte(strings.Repeat("y", 3*stderrKeep)))
	if got := tl.lines(5); len(got) != 0 {
		t.Errorf("a line longer than what is kept: %d lines", len(got))
	}
	if len(tl.buf) > stderrKeep {
		t.Errorf("keeps %d bytes", len(tl.buf))
	}
}

// An agent that cannot start leaves its reasons on stderr, and the
// connection has them once the agent is gone: one that exits at once, and
// one that fails initialize with an error.
func TestStderrOfAgentThatCannotStart(t *testing.T) {
	bin := acptest.Build(t)
	for _, tc := range []struct {
		name    string
		command []string
		err     string
		stderr  string
	}{
		{"exits at once", []string{"sh", "-c", `echo "config: no API key" >&2; printf 'giving up\r' >&2; exit 3`},
			"initialize: the agent exited (exit status 3)", "config: no API key\ngiving up"},
		{"initialize fails", []string{"env", "ACPTEST_INIT_ERROR=no model configured", bin},
			"initialize: the agent answered error -32603: no model configured", "no model configured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The SDK may still log its farewell after Done: the log is
			// read under the same lock it is written under.
			log := &lockedLog{}
			c, err := Start(Options{Command: tc.command, Dir: t.TempDir(), Stderr: log})
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				for range c.Records() {
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err = c.Initialize(ctx)
			if err == nil || err.Error() != tc.err {
				t.Errorf("initialize: %v, want %q", err, tc.err)
			}
			c.Close()
			<-c.Done()
			if got := strings.Join(c.StderrTail(), "\n"); !strings.Contains(got, tc.stderr) {
				t.Errorf("stderr tail %q, want it to hold %q", got, tc.stderr)
			}
			if !strings.Contains(log.String(), strings.Split(tc.stderr, "\n")[0]) {
				t.Errorf("the log lacks the agent's stderr: %q", log.String())
			}
		})
	}
	if _, err := Start(Options{Command: []string{"/no/such/agent"}, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "/no/such/agent") {
		t.Errorf("a command that does not exist: %v", err)
	}
}

// lockedLog is a log the connection writes while the test reads it.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
