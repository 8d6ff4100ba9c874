//go:build unix

package acpconn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// An agent behind a wrapper is ended by Close after its turn, whoever
// holds its pipes: a shell that runs it and then something else, a
// pipeline whose last command writes its output, a child of the wrapper
// that ignores the end of its input, a process that left the agent's
// group on purpose. Close returns, and the session ends.
func TestCloseEndsAgentBehindWrapper(t *testing.T) {
	t.Parallel()
	bin := acptest.Build(t)
	for _, tc := range []struct {
		name, script string
		escapes      bool // the script starts a process outside the group; it writes its pid
	}{
		{"then-true", `"$0"; true`, false},
		{"pipeline", `"$0" | cat`, false},
		{"child-ignores-eof", `sleep 600 & "$0"; true`, false},
		{"left-the-group", `setsid sleep 600 & echo $! >"$1"; "$0"; true`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			if tc.escapes {
				if _, err := exec.LookPath("setsid"); err != nil {
					t.Skip(err)
				}
				t.Cleanup(func() { killPidIn(pidFile) })
			}
			s := startCommand(t, Options{Command: []string{"sh", "-c", tc.script, bin, pidFile}})
			if stop, err := s.conn.Prompt(ctx10(t), "refuse"); err != nil || stop != "refusal" {
				t.Fatalf("prompt: %q, %v", stop, err)
			}
			closed := make(chan error, 1)
			go func() { closed <- s.conn.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatalf("Close: %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Close did not return: it waits for a pipe a child of the wrapper holds")
			}
			select {
			case <-s.conn.Done():
			default:
				t.Fatal("Close returned before the session ended")
			}
		})
	}
}

// killPidIn kills the process whose pid is in file, if any.
func killPidIn(file string) {
	b, err := os.ReadFile(file)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
