package sources

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// claudeFixtureSession is the session of testdata/claude's one project.
const claudeFixtureSession = "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23"

// writeEntry writes a registry entry for pid into dir.
func writeEntry(t *testing.T, dir string, s ClaudeSession) {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(s.PID)+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// deadPID is the pid of a process that has run and been waited for.
func deadPID(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.Pid()
}

// TestReadClaudeRegistry reads a registry of a live entry (this process),
// the stale one testdata keeps, one of a finished process, and files that
// are no entries: only the live one counts.
func TestReadClaudeRegistry(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no way to ask whether a pid runs")
	}
	dir := t.TempDir()
	stale, err := os.ReadFile(filepath.Join("..", "testdata", "claude", "sessions", "999999999.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "999999999.json"), stale, 0o600); err != nil {
		t.Fatal(err)
	}
	writeEntry(t, dir, ClaudeSession{PID: os.Getpid(), SessionID: "live", Cwd: "/home/dev/app", Kind: "interactive", Entrypoint: "cli", Status: "waiting", Version: "2.1.139"})
	writeEntry(t, dir, ClaudeSession{PID: deadPID(t), SessionID: "exited", Status: "busy"})
	for name, text := range map[string]string{
		"pid-" + strconv.Itoa(os.Getpid()) + ".json": `{"session_id":"legacy","cwd":"/x"}`, // the older kind
		"12.json":                            `{"pid":13,"sessionId":"other pid"}`,
		"notes.json":                         `{"pid":1,"sessionId":"not a pid's name"}`,
		strconv.Itoa(os.Getppid()) + ".json": `{not json`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadClaudeRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("entries %v, want the live one alone", got)
	}
	s := got["live"]
	if s.PID != os.Getpid() || s.Status != "waiting" || s.Cwd != "/home/dev/app" || s.Kind != "interactive" || s.Live != Alive {
		t.Errorf("live entry read as %+v", s)
	}
	if _, ok := got[claudeFixtureSession]; ok {
		t.Error("the stale entry of a dead pid counts")
	}
}

// TestReadClaudeRegistryChanges reads a registry again after its entry
// changed and after it was removed, as a watch does.
func TestReadClaudeRegistryChanges(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no way to ask whether a pid runs")
	}
	dir := t.TempDir()
	status := func() string {
		t.Helper()
		got, err := ReadClaudeRegistry(dir)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := got["s"]
		if !ok {
			return "(none)"
		}
		return s.Status
	}
	if got := status(); got != "(none)" {
		t.Fatalf("empty folder: %s", got)
	}
	writeEntry(t, dir, ClaudeSession{PID: os.Getpid(), SessionID: "s", Status: "busy"})
	if got := status(); got != "busy" {
		t.Fatalf("status %s, want busy", got)
	}
	writeEntry(t, dir, ClaudeSession{PID: os.Getpid(), SessionID: "s", Status: "idle"})
	if got := status(); got != "idle" {
		t.Fatalf("status %s, want idle", got)
	}
	if err := os.Remove(filepath.Join(dir, strconv.Itoa(os.Getpid())+".json")); err != nil {
		t.Fatal(err)
	}
	if got := status(); got != "(none)" {
		t.Fatalf("removed entry: %s", got)
	}
	if got, err := ReadClaudeRegistry(filepath.Join(dir, "missing")); err != nil || len(got) != 0 {
		t.Fatalf("missing folder: %v, %v", got, err)
	}
}

// TestProcessAlive asks of this process, of a finished one, and of this
// process under a start time that is not its own (a reused pid).
func TestProcessAlive(t *testing.T) {
	if runtime.GOOS == "windows" {
		if ProcessAlive(os.Getpid(), "") != LivenessUnknown {
			t.Fatal("windows: want unknown")
		}
		return
	}
	if got := ProcessAlive(os.Getpid(), ""); got != Alive {
		t.Errorf("this process: %v", got)
	}
	if got := ProcessAlive(deadPID(t), ""); got != Dead {
		t.Errorf("a finished process: %v", got)
	}
	if got := ProcessAlive(999999999, ""); got != Dead {
		t.Errorf("pid 999999999: %v", got)
	}
	start, ok := procStart(os.Getpid())
	if !ok {
		return // no /proc here
	}
	if got := ProcessAlive(os.Getpid(), start); got != Alive {
		t.Errorf("this process at its own start %s: %v", start, got)
	}
	if got := ProcessAlive(os.Getpid(), start+"0"); got != Dead {
		t.Errorf("this process at another start: %v", got)
	}
}
