package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// killedPrompt is the i-th OTLP/JSON request the killed receiver is
// sent: a Claude Code prompt, large, so that a kill may land inside the
// write of its line.
func killedPrompt(i int) []byte {
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).UnixNano()
	return fmt.Appendf(nil, `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claude-code"}}]},`+
		`"scopeLogs":[{"logRecords":[{"timeUnixNano":"%d","body":{"stringValue":"claude_code.user_prompt"},"attributes":[`+
		`{"key":"session.id","value":{"stringValue":"s"}},{"key":"prompt.id","value":{"stringValue":"p%d"}},{"key":"prompt","value":{"stringValue":"prompt %d %s"}}]}]}]}]}`,
		at, i, i, strings.Repeat("x", 64<<10))
}

// agentwatch otlp --record killed with SIGKILL while exporters send
// leaves a file that is the requests it answered, whole, in the order it
// took them, and at most the start of the one it was writing: every
// request answered success is there, and the file opens (its cut-off
// tail, if the kill left one, is the only problem row).
func TestOTLPRecordKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := agentwatchBinary(t)
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	cmd := exec.Command(bin, "otlp", "--plain", "--listen", "127.0.0.1:0", "--grpc-listen", "", "--record", path)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	first, err := bufio.NewReader(stderr).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(first), "agentwatch: receiving OTLP/HTTP http://")
	if err != nil || !ok {
		t.Fatalf("the receiver said %q (%v)", first, err)
	}
	// The line each request becomes in the recording, and whose it is.
	const senders, each = 4, 200
	lines := map[string]int{}
	for i := range senders * each {
		req, err := otlp.DecodeJSON(otlp.SignalLogs, killedPrompt(i))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := req.MarshalJSON()
		lines[string(b)] = i
	}
	var (
		mu       sync.Mutex
		answered = map[int]bool{}
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	client := &http.Client{Timeout: 10 * time.Second}
	for s := range senders {
		wg.Go(func() {
			for k := range each {
				select {
				case <-stop:
					return
				default:
				}
				i := s*each + k
				resp, err := client.Post("http://"+addr+"/v1/logs", "application/json", bytes.NewReader(killedPrompt(i)))
				if err != nil {
					return // killed
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					mu.Lock()
					answered[i] = true
					mu.Unlock()
				}
			}
		})
	}
	for {
		mu.Lock()
		n := len(answered)
		mu.Unlock()
		if n >= 100 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	close(stop)
	wg.Wait()

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, tail := data, []byte(nil)
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		whole, tail = data[:i+1], data[i+1:]
	}
	kept := map[int]bool{}
	for n, line := range bytes.Split(bytes.TrimSuffix(whole, []byte("\n")), []byte("\n")) {
		i, ok := lines[string(line)]
		if !ok || kept[i] {
			t.Fatalf("line %d of the recording is not a request sent, or one kept twice: %.200q", n+1, line)
		}
		kept[i] = true
	}
	for i := range answered {
		if !kept[i] {
			t.Errorf("request %d was answered success but is not in the recording", i)
		}
	}
	if len(tail) > 0 {
		prefix := false
		for l := range lines {
			prefix = prefix || strings.HasPrefix(l, string(tail))
		}
		if !prefix {
			t.Errorf("the recording ends in %.200q, not the start of a request", tail)
		}
	}
	file, err := otlp.Read(bytes.NewReader(data), otel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	problems := 0
	for _, r := range file.Records {
		if _, bad := r.Event.(*model.Unreadable); bad {
			problems++
		}
	}
	// A tail is a problem row, unless the kill fell just before its
	// newline.
	wantProblems := min(len(tail), 1)
	if _, whole := lines[string(tail)]; whole {
		wantProblems = 0
	}
	if problems != wantProblems || file.Requests != len(kept)+min(len(tail), 1) {
		t.Errorf("the recording reads as %d requests and %d problems, want %d whole requests and %d", file.Requests, problems, len(kept), wantProblems)
	}
	t.Logf("%d requests answered success before the kill; the recording keeps %d whole, and a cut-off tail of %d bytes", len(answered), len(kept), len(tail))
}
