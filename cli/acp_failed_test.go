package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// An agent that fails to start says so in --plain with its reason and
// the last lines of its standard error, made safe: a command that does not
// exist, one that exits at once, one whose initialize answers an error.
// No run leaves a file in the temporary folder: without --stderr-log the
// agent's stderr is kept only in memory; with it, in that file.
func TestACPPlainFailedStart(t *testing.T) {
	bin := acptest.Build(t) // before TMPDIR changes: go build works there
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, tc := range []struct {
		name    string
		agent   []string
		code    int
		wantErr []string
	}{
		{"no such command", []string{"/no/such/agent"}, exitUnreadable,
			[]string{"agentwatch: agent failed to start: fork/exec /no/such/agent: no such file or directory\n"}},
		{"exits at once", []string{"sh", "-c", `echo "loading config" >&2; printf '\033[31merror:\033[0m no API key\033]0;pwned\007 set\n' >&2; exit 3`}, exitProblems,
			[]string{"agentwatch: agent failed to start: initialize: the agent exited (exit status 3)\nagent stderr:\n  loading config\n  error: no API key set\n"}},
		{"initialize fails", []string{"env", "ACPTEST_INIT_ERROR=no model configured", bin}, exitProblems,
			[]string{"agentwatch: agent failed to start: initialize: the agent answered error -32603: no model configured\nagent stderr:\n", `reason="no model configured"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"acp", "--cwd", t.TempDir(), "--plain", "--prompt", "all", "--"}, tc.agent...)
			code, out, errOut := runCLI(t, nil, args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr\n%s\nlacks\n%s", errOut, want)
				}
			}
			if strings.Contains(errOut, "\x1b") || strings.Contains(errOut, "pwned") {
				t.Errorf("the agent's escape sequences reached the terminal: %q", errOut)
			}
		})
	}
	// A turn that ends well and one whose agent dies leave nothing either.
	if code, out, errOut := runCLI(t, nil, "acp", "--cwd", t.TempDir(), "--plain", "--prompt", "refuse", "--", bin); code != exitProblems {
		t.Errorf("refuse: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut := runCLI(t, nil, "acp", "--cwd", t.TempDir(), "--plain", "--prompt", "crash", "--", bin)
	if code == 0 || !strings.Contains(errOut, "session/prompt: the agent exited (exit status 3)\nagent stderr:\n") || !strings.Contains(errOut, "crashing on purpose") {
		t.Errorf("crash: exit %d\n%s", code, errOut)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("runs left %d files in the temporary folder: %s", len(left), left[0].Name())
	}
	// --stderr-log keeps it all, and the run still says why.
	log := filepath.Join(t.TempDir(), "agent.log")
	code, _, errOut = runCLI(t, nil, "acp", "--cwd", t.TempDir(), "--stderr-log", log, "--plain", "--prompt", "x", "--", "env", "ACPTEST_INIT_ERROR=no model configured", bin)
	if kept, _ := os.ReadFile(log); code != exitProblems || !strings.Contains(string(kept), "no model configured") || !strings.Contains(errOut, "agent stderr:") {
		t.Errorf("--stderr-log: exit %d, log %q, stderr %q", code, kept, errOut)
	}
}
