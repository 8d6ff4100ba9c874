package sources

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// fileLimitEnv, set, makes TestRecorderWriteFails the child that records
// under a file size limit of that many bytes.
const fileLimitEnv = "AGENTWATCH_TEST_FILE_LIMIT"

// A write the system refuses (here a file size limit, as a full disk
// would) is an error naming the file and what it keeps; the file is cut
// back to its last whole event, so it is still a log every reader takes,
// and Close still closes the array.
func TestRecorderWriteFails(t *testing.T) {
	if os.Getenv(fileLimitEnv) != "" {
		recordUnderLimit(t)
		return
	}
	path := filepath.Join(t.TempDir(), "rec.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRecorderWriteFails$")
	cmd.Env = append(os.Environ(), fileLimitEnv+"=1000", "AGENTWATCH_TEST_PATH="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var msg string
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "write error: "); ok {
			msg = m
		}
	}
	if !strings.Contains(msg, path) || !strings.Contains(msg, "file too large") || !strings.Contains(msg, "it keeps the ") {
		t.Fatalf("write error %q: want the file, the cause and what it keeps\n%s", msg, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var events []map[string]any
	if err := json.Unmarshal(data, &events); err != nil {
		t.Fatalf("the recording is not a whole JSON array: %v\n%s", err, data)
	}
	if len(events) == 0 || !strings.Contains(msg, fmt.Sprintf("the %d events", len(events))) {
		t.Fatalf("%d events kept; the error says %q", len(events), msg)
	}
	for i, ev := range events {
		if ev["delta"] != strings.Repeat("x", 100) {
			t.Fatalf("event %d is not whole: %v", i, ev)
		}
	}
}

// recordUnderLimit is the child: it lowers its own file size limit and
// records until a write fails.
func recordUnderLimit(t *testing.T) {
	var limit uint64
	fmt.Sscan(os.Getenv(fileLimitEnv), &limit)
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &rl); err != nil {
		t.Fatal(err)
	}
	rl.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &rl); err != nil {
		t.Fatal(err)
	}
	r, err := CreateRecorder(os.Getenv("AGENTWATCH_TEST_PATH"), false)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("x", 100) + `","timestamp":1}`
	for i := range 100 {
		if err := r.Write(model.Record{Seq: uint64(i + 1), Raw: []byte(raw)}); err != nil {
			fmt.Println("write error:", err)
			break
		}
	}
	if err := r.Close(); err == nil {
		t.Fatal("Close forgot the write error")
	}
}
