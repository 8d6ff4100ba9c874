package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/sources"
)

// acpRun runs `agentwatch acp` against the fixture agent in a fresh folder.
func acpRun(t *testing.T, env []string, flags ...string) (code int, out, errOut, dir string) {
	t.Helper()
	bin := acptest.Build(t)
	dir = t.TempDir()
	args := append([]string{"acp", "--cwd", dir, "--stderr-log", filepath.Join(dir, "agent.log")}, flags...)
	args = append(args, "--", "env")
	args = append(args, env...)
	args = append(args, bin)
	code, out, errOut = runCLI(t, nil, args...)
	return code, out, errOut, dir
}

// One headless turn prints the step lines and exits 0 on end_turn; a
// permission without --permissions is rejected, and says so.
func TestACPPlainTurn(t *testing.T) {
	code, out, errOut, dir := acpRun(t, nil, "--plain", "--prompt", "all")
	if code != 0 {
		t.Fatalf("exit %d\nout %s\nerr %s", code, out, errOut)
	}
	for _, want := range []string{"you: all", "Ran command", "Edited", "permission · Edit config.yaml? · rejected", "turn ended: end_turn"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if log, _ := os.ReadFile(filepath.Join(dir, "agent.log")); len(log) == 0 {
		t.Error("the agent's stderr did not reach the log file")
	}
	if strings.Contains(out, "fixture-agent:") || strings.Contains(errOut, "fixture-agent:") {
		t.Error("the agent's stderr reached the output")
	}
	code, out, _, _ = acpRun(t, nil, "--plain", "--permissions", "allow-once", "--prompt", "permission")
	if code != 0 || strings.Contains(out, "rejected") {
		t.Errorf("--permissions allow-once: exit %d\n%s", code, out)
	}
	if code, out, _, _ = acpRun(t, nil, "--plain", "--prompt", "refuse"); code == 0 || !strings.Contains(out, "turn ended: refusal") {
		t.Errorf("a refused turn: exit %d, want non-zero\n%s", code, out)
	}
	if code, _, errOut, _ = acpRun(t, nil, "--plain", "--prompt", "crash"); code == 0 || !strings.Contains(errOut, "exited") {
		t.Errorf("an agent that dies: exit %d, err %q", code, errOut)
	}
}

// An agent that cannot load sessions says so clearly.
func TestACPLoadUnsupported(t *testing.T) {
	code, _, errOut, _ := acpRun(t, []string{"ACPTEST_NO_LOAD=1"}, "--load", "fx-1", "--plain")
	if code != exitUnreadable || !strings.Contains(errOut, "cannot load sessions") {
		t.Fatalf("exit %d, err %q", code, errOut)
	}
}

func TestACPFlags(t *testing.T) {
	for _, args := range [][]string{
		{"acp"},
		{"acp", "--permissions", "yes", "--", "true"},
		{"acp", "--plain", "--", "true"},
		{"acp", "--list", "--load", "x", "--", "true"},
		{"acp", "--plain", "--prompt", "hi", "--", "/no/such/agent"},
	} {
		if code, _, errOut := runCLI(t, nil, args...); code != exitUnreadable || errOut == "" {
			t.Errorf("%v: exit %d, err %q; want 2 and a reason", args, code, errOut)
		}
	}
}

// A recorded session replays to the same fold as the live one, and lists
// and loads through the agent's session store.
func TestACPRecordListLoad(t *testing.T) {
	store := t.TempDir()
	env := []string{"ACPTEST_STORE=" + store}
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	code, out, errOut, dir := acpRun(t, env, "--plain", "--permissions", "allow-once", "--record", rec, "--prompt", "all")
	if code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	// The recording folds to what was printed live.
	code, steps, _ := runCLI(t, nil, "steps", rec)
	if code != 0 || strings.Count(steps, "\n") < 13 {
		t.Fatalf("steps of the recording: exit %d\n%s", code, steps)
	}
	code, replayed, _ := runCLI(t, nil, "replay", "--plain", "--speed", "16", "--idle-cap", "1ms", rec)
	// Lines for intermediate states depend on how records were batched;
	// every step's end and every message must be the same.
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " completed · ") || strings.Contains(l, " failed · ") || strings.HasPrefix(l, "agent: ") {
			if !strings.Contains(replayed, l) {
				t.Errorf("the replay lacks the live line %q", l)
			}
		}
	}
	if code != 0 {
		t.Fatalf("replay: exit %d", code)
	}
	file, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	r := sources.NewReader(file)
	f := fold.New(fold.Options{})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		f.Apply(rec)
	}
	file.Close()
	if r.Format() != sources.FormatACPRecording {
		t.Fatalf("the recording is read as %s", r.Format())
	}
	if n := len(f.Steps()); n < 13 {
		t.Fatalf("the recording folds to %d steps", n)
	}
	// --list in the same folder names the session; --load replays it.
	bin := acptest.Build(t)
	code, list, errOut := runCLI(t, nil, "acp", "--cwd", dir, "--list", "--stderr-log", filepath.Join(t.TempDir(), "l.log"), "--", "env", env[0], bin)
	if code != 0 || !strings.Contains(list, "fx-") {
		t.Fatalf("--list: exit %d\n%s\n%s", code, list, errOut)
	}
	id := strings.Fields(list)[0]
	for _, split := range []string{"before", "after", "half"} {
		code, loaded, errOut := runCLI(t, nil, "acp", "--cwd", dir, "--load", id, "--plain", "--pace", "0", "--stderr-log", filepath.Join(t.TempDir(), "l.log"),
			"--", "env", env[0], "ACPTEST_LOAD_SPLIT="+split, bin)
		if code != 0 {
			t.Fatalf("--load (%s): exit %d\n%s", split, code, errOut)
		}
		for _, want := range []string{"Ran command", "Edited", "Switched mode"} {
			if !strings.Contains(loaded, want) {
				t.Errorf("--load with history %s the answer lacks %q:\n%s", split, want, loaded)
			}
		}
	}
}
