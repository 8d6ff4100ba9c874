package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// wrapped is the fixture agent behind a shell that runs something after
// it: the shell's child holds the agent's pipes, as with npx or a script.
func wrapped(bin string) []string {
	return []string{"sh", "-c", `"$0"; true`, bin}
}

// runBounded runs args as runAsChild does, under a file size limit of
// limit bytes, and returns its exit status and stderr; a child that has
// not ended within a minute is killed and fails t, so a hang is a failure
// rather than a stuck test.
func runBounded(t *testing.T, test string, limit int, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"), fmt.Sprintf("%s=%d", childLimitEnv, limit))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("agentwatch %s did not exit within a minute\n%s", strings.Join(args, " "), out)
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	code, stderr := -1, ""
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "child exit: "); ok {
			fmt.Sscan(v, &code)
		}
		if v, ok := strings.CutPrefix(l, "child stderr: "); ok {
			stderr = v
		}
	}
	return code, stderr
}

// acp --plain --prompt exits after the turn when the agent runs behind a
// wrapper, with the turn's status.
func TestACPPlainExitsBehindWrapper(t *testing.T) {
	if runAsChild(t) {
		return
	}
	bin := acptest.Build(t)
	dir := t.TempDir()
	args := append([]string{"acp", "--cwd", dir, "--plain", "--prompt", "burst 10", "--"}, wrapped(bin)...)
	if code, stderr := runBounded(t, "TestACPPlainExitsBehindWrapper", 1<<30, args...); code != exitOK {
		t.Fatalf("exit %d, stderr %q: want 0 after an end_turn", code, stderr)
	}
}

// acp --record on a disk that fills up, the agent behind a wrapper: the
// error is reported and the exit status is 2, rather than the session
// hanging on the wrapper's child and the error never said.
func TestACPRecordWriteFailsBehindWrapper(t *testing.T) {
	if runAsChild(t) {
		return
	}
	bin := acptest.Build(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	args := append([]string{"acp", "--cwd", dir, "--plain", "--permissions", "allow-once", "--record", rec, "--prompt", "all", "--"}, wrapped(bin)...)
	code, stderr := runBounded(t, "TestACPRecordWriteFailsBehindWrapper", 3000, args...)
	if code != exitUnreadable || !strings.Contains(stderr, rec) || !strings.Contains(stderr, "file too large") || !strings.Contains(stderr, "stopped") {
		t.Fatalf("exit %d, stderr %q: want 2, the file, the cause, and that the session stopped", code, stderr)
	}
}
