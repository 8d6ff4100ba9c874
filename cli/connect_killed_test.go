package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// connectHelperEnv makes the test binary, run again, the helper process
// of TestConnectRecordKilled: `agentwatch connect URL --plain --record
// FILE`, with URL and FILE from the variable.
const connectHelperEnv = "AGENTWATCH_CONNECT_RECORD_HELPER"

func TestMain(m *testing.M) {
	if v := os.Getenv(connectHelperEnv); v != "" {
		url, path, _ := strings.Cut(v, " ")
		var out bytes.Buffer
		os.Exit(Run([]string{"connect", url, "--plain", "--record", path}, nil, &out, os.Stderr))
	}
	os.Exit(m.Run())
}

// trickleEvent is event i of an endless run the trickle server sends,
// with its own timestamp, so that the recorder keeps it byte for byte.
func trickleEvent(i int) string {
	if i == 0 {
		return `{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}`
	}
	if i == 1 {
		return `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","timestamp":2}`
	}
	return fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%d ","timestamp":%d}`, i, i+1)
}

// connect --record killed by SIGKILL in the middle of a stream leaves a
// file that reads back as the exact first events the endpoint sent: no
// event lost of those it wrote, none changed, nothing after them.
func TestConnectRecordKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a helper process")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		f := w.(http.Flusher)
		for i := 0; req.Context().Err() == nil; i++ {
			fmt.Fprintf(w, "data: %s\n\n", trickleEvent(i))
			f.Flush()
			time.Sleep(100 * time.Microsecond)
		}
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "run.json")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), connectHelperEnv+"="+srv.URL+" "+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once it has recorded a few hundred events.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if b, _ := os.ReadFile(path); bytes.Count(b, []byte(",\n")) >= 300 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the helper recorded too little in a minute\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the helper ended before it was killed")
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	events := recs
	if n := len(recs); n > 0 {
		if _, cut := recs[n-1].Event.(*model.Unreadable); cut {
			events = recs[:n-1] // the kill landed inside a write
		}
	}
	if len(events) < 300 {
		t.Fatalf("read back %d events of the 300 or more recorded", len(events))
	}
	var want bytes.Buffer
	want.WriteString("[")
	for i, rec := range events {
		if i > 0 {
			want.WriteString(",\n")
		}
		want.WriteString(trickleEvent(i))
		if string(rec.Raw) != trickleEvent(i) {
			t.Fatalf("event %d read back as %s, want %s", i+1, rec.Raw, trickleEvent(i))
		}
	}
	if !bytes.HasPrefix(data, want.Bytes()) {
		t.Fatal("the file is not the recording of the events read back")
	}
}
