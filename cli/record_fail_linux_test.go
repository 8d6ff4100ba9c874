package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// The child of these tests runs the command line in args (one per line of
// the variable) under a file size limit, as a full disk would refuse
// writes, and prints its exit status and standard error.
const (
	childArgsEnv  = "AGENTWATCH_TEST_CHILD_ARGS"
	childLimitEnv = "AGENTWATCH_TEST_CHILD_FILE_LIMIT"
)

// underFileLimit runs args in a child process whose files may not grow
// past limit bytes, with stdin, and returns its exit status and stderr.
func underFileLimit(t *testing.T, test string, limit int, stdin []byte, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+strings.Join(args, "\n"), fmt.Sprintf("%s=%d", childLimitEnv, limit))
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var code int
	var stderr string
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

// runAsChild is the child's side: true when this process is the child
// (it has then run the command line).
func runAsChild(t *testing.T) bool {
	args := os.Getenv(childArgsEnv)
	if args == "" {
		return false
	}
	var limit uint64
	fmt.Sscan(os.Getenv(childLimitEnv), &limit)
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &rl); err != nil {
		t.Fatal(err)
	}
	rl.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &rl); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Run(strings.Split(args, "\n"), os.Stdin, &out, &errb)
	fmt.Printf("child exit: %d\nchild stderr: %s\n", code, strings.ReplaceAll(errb.String(), "\n", " | "))
	return true
}

// --record on a disk that fills up: the watch stops with an error naming
// the file and what it keeps, exit 2, and the file holds whole events (a
// JSON array a reader takes), never one cut in the middle.
func TestRecordWriteFails(t *testing.T) {
	if runAsChild(t) {
		return
	}
	log := loggen.Generate(3000, 1)
	rec := filepath.Join(t.TempDir(), "rec.json")
	code, stderr := underFileLimit(t, "TestRecordWriteFails", 256<<10, log, "--plain", "--record", rec, "-")
	if code != exitUnreadable || !strings.Contains(stderr, rec) || !strings.Contains(stderr, "file too large") {
		t.Fatalf("exit %d, stderr %q: want 2 and an error naming %s and the cause", code, stderr, rec)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var events []json.RawMessage
	if err := json.Unmarshal(data, &events); err != nil {
		t.Fatalf("the recording is not a whole JSON array: %v (%d bytes)", err, len(data))
	}
	if len(events) == 0 || !strings.Contains(stderr, fmt.Sprintf("keeps the %d events", len(events))) {
		t.Fatalf("%d events kept; stderr says %q", len(events), stderr)
	}
}

// acp --record on a disk that fills up: the session stops, the error
// names the file, exit 2, and the recording holds whole lines only.
func TestACPRecordWriteFails(t *testing.T) {
	if runAsChild(t) {
		return
	}
	bin := acptest.Build(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	code, stderr := underFileLimit(t, "TestACPRecordWriteFails", 3000, nil, "acp", "--cwd", dir, "--stderr-log", filepath.Join(dir, "agent.log"),
		"--plain", "--permissions", "allow-once", "--record", rec, "--prompt", "all", "--", bin)
	if code != exitUnreadable || !strings.Contains(stderr, rec) || !strings.Contains(stderr, "file too large") || !strings.Contains(stderr, "stopped") {
		t.Fatalf("exit %d, stderr %q: want 2, the file, the cause, and that the session stopped", code, stderr)
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line %d is not whole: %q", lines+1, sc.Bytes())
		}
		lines++
	}
	if lines == 0 || !strings.Contains(stderr, fmt.Sprintf("keeps the %d lines", lines)) {
		t.Fatalf("%d lines kept; stderr says %q", lines, stderr)
	}
}
