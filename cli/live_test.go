package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// connect runs an AG-UI agent over HTTP: with --plain it prints the run as
// lines and ends with the stream; --record keeps the events as a log that
// folds to the same result; an HTTP error names the status.
func TestConnectPlainAndRecord(t *testing.T) {
	var gotAuth, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		b := make([]byte, 4096)
		n, _ := r.Body.Read(b)
		gotBody = string(b[:n])
		if gotAuth != "Bearer s3cret" {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hello from the agent"}`,
			`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"sh","metadata":{"category":"execute","location":"make test"}}`,
			`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"tr","toolCallId":"c","content":"ok"}`,
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", ev)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	rec := filepath.Join(t.TempDir(), "run.json")
	code, out, errOut := runCLI(t, nil, "connect", srv.URL, "--plain", "--message", "hi", "--header", "Authorization: Bearer s3cret", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"run r started", "agent: hello from the agent", "step 1 execute completed · Ran command · make test", "run r completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(gotBody, `"content":"hi"`) {
		t.Errorf("request body %s", gotBody)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"timestamp":`); n != 8 {
		t.Errorf("recorded %d timestamped events, want 8:\n%s", n, data)
	}
	if code, _, _ := runCLI(t, nil, "validate", rec); code != 0 {
		t.Errorf("the recording does not validate")
	}
	code, _, errOut = runCLI(t, nil, "connect", srv.URL, "--plain", "--header", "Authorization: Bearer wrong")
	if code != exitUnreadable || !strings.Contains(errOut, "401") || strings.Contains(errOut, "wrong") {
		t.Errorf("bad token: exit %d, stderr %q", code, errOut)
	}
}

// --plain on a file prints the run in order; --record refuses an existing file.
func TestPlainFileAndRecordRefusal(t *testing.T) {
	code, out, _ := runCLI(t, nil, "--plain", "../testdata/peer/samples/full.json")
	if code != 0 || !strings.HasPrefix(out, "== thread t1 ==\nrun r1 started\n") || !strings.Contains(out, "run r1 completed\nrun r2 started (continues r1)") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	existing := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(existing, []byte("[]"), 0o644)
	code, _, errOut := runCLI(t, nil, "--plain", "--record", existing, "../testdata/peer/samples/full.json")
	if code != exitUnreadable || !strings.Contains(errOut, "--append") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
