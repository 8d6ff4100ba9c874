package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
)

const otlpFile = "../testdata/otlp/fleet.jsonl"

// A file in the Collector's file exporter format opens like any log:
// steps, fold, validate, threads and replay read it, thread by thread.
func TestOTLPFileCommands(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "steps", otlpFile)
	want := `support-bot/worker-2/ticket-4411            1  other    Used lookup_order               completed  400ms
claude-code/laptop/5f0c2a9e-claude-session  1  execute  Command failed · go test ./...  failed     3.1s
claude-code/laptop/5f0c2a9e-claude-session  2  read     Read · fold/fold.go             completed  40ms
claude-code/laptop/5f0c2a9e-claude-session  3  edit     Edit cancelled                  cancelled  -
`
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("steps: exit %d, err %q, out\n%s\nwant\n%s", code, errOut, out, want)
	}
	code, out, _ = runCLI(t, nil, "fold", "--compact", otlpFile)
	var folded struct {
		Threads []struct {
			ThreadID string `json:"threadId"`
			Runs     []struct {
				RunID string          `json:"runId"`
				Usage json.RawMessage `json:"usage"`
			} `json:"runs"`
		} `json:"threads"`
	}
	if err := json.Unmarshal([]byte(out), &folded); code != 0 || err != nil || len(folded.Threads) != 2 {
		t.Fatalf("fold: exit %d, %v, %s", code, err, out)
	}
	if r := folded.Threads[0].Runs; len(r) != 1 || r[0].RunID != "4bf92f3577b34da6a3ce929d0e0e4736" ||
		string(r[0].Usage) != `[{"provider":"openai","model":"gpt-4o","inputTokens":750,"outputTokens":63,"totalTokens":813}]` {
		t.Errorf("fold: the GenAI run %+v", r)
	}
	if code, out, _ = runCLI(t, nil, "validate", otlpFile); code != 0 || out != "" {
		t.Errorf("validate: exit %d, %q", code, out)
	}
	if code, out, _ = runCLI(t, nil, "threads", otlpFile); code != 0 || !strings.Contains(out, "why does the build fail?") {
		t.Errorf("threads: exit %d, %q", code, out)
	}
	code, out, errOut = runCLI(t, nil, "replay", "--plain", "--speed", "16", otlpFile)
	_, live, _ := runCLI(t, nil, "--plain", otlpFile)
	if code != 0 || out != live || !strings.Contains(out, "step 3 edit cancelled · Edit cancelled") {
		t.Errorf("replay --plain: exit %d, err %q\n%s\nwant what --plain prints:\n%s", code, errOut, out, live)
	}
	code, out, _ = runCLI(t, nil, otlpFile)
	if code != 0 || !strings.Contains(out, "OpenTelemetry (OTLP/JSON)") {
		t.Errorf("agentwatch FILE piped: exit %d, %q", code, out)
	}
}

// waitFor waits until out holds every line of want (the receiver prints
// them as the exporters' requests are mapped), or fails after a long
// while.
func waitFor(t *testing.T, out *syncbuf.Buffer, want ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		missing := ""
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in\n%s", missing, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// agentwatch otlp, on loopback ports of its own, takes what the
// OpenTelemetry SDK's exporters send over HTTP and gRPC and prints it as
// lines; --record keeps the requests as OTLP/JSON lines, only for the
// user, which open and replay with the same steps.
func TestOTLPReceiverPlainAndRecord(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "telemetry.jsonl")
	out, errOut := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	opts := &app.Options{Plain: true, Stdout: out, Stderr: errOut}
	addrs := make(chan [2]string, 1)
	o := &app.OTLPOptions{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0", Record: rec,
		Ready: func(h, g string) { addrs <- [2]string{h, g} }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- app.New(opts).ReceiveOTLP(ctx, o) }()
	a := <-addrs
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	agent, err := otlptest.New(ctx, otlptest.HTTP, a[0], "", "support-bot", "web-1")
	if err != nil {
		t.Fatal(err)
	}
	traceID, _ := agent.AgentRun(ctx, "ticket-9", t0)
	claude, err := otlptest.New(ctx, otlptest.GRPC, a[1], "", "claude-code", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	claude.ClaudeCode(ctx, "s1", t0)
	if err := errorsJoin(agent.Shutdown(ctx), claude.Shutdown(ctx)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "run "+traceID+" completed", "step 1 other completed · Used lookup_order · 400ms",
		"step 2 other failed · refund failed", "you: make the tests pass", "step 1 execute completed · Ran command · go test ./... · 900ms",
		"step 2 edit cancelled · Edit cancelled")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "receiving OTLP/HTTP http://"+a[0]) {
		t.Errorf("stderr %q", errOut.String())
	}
	st, err := os.Stat(rec)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v, mode %v", err, st.Mode())
	}
	b, _ := os.ReadFile(rec)
	if !bytes.Contains(b, []byte(`"traceId":"`+traceID+`"`)) {
		t.Errorf("the recording does not keep the trace id %s in hex", traceID)
	}
	code, steps, _ := runCLI(t, nil, "steps", rec)
	for _, w := range []string{"Used lookup_order", "refund failed", "Ran command · go test ./...", "Edit cancelled"} {
		if code != 0 || !strings.Contains(steps, w) {
			t.Errorf("steps of the recording: exit %d, no %q in\n%s", code, w, steps)
		}
	}
	code, replayed, _ := runCLI(t, nil, "replay", "--plain", "--speed", "16", rec)
	if code != 0 || !strings.Contains(replayed, "run "+traceID+" completed") {
		t.Errorf("replay of the recording: exit %d\n%s", code, replayed)
	}
}

// errorsJoin keeps the first error.
func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// The receiver refuses to listen off loopback without a token, and a
// recording that exists already.
func TestOTLPRefusals(t *testing.T) {
	code, _, errOut := runCLI(t, nil, "otlp", "--listen", "0.0.0.0:0", "--grpc-listen", "")
	if code != exitUnreadable || !strings.Contains(errOut, "--token-file") {
		t.Errorf("off loopback: exit %d, %q", code, errOut)
	}
	f := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(f, []byte("{}\n"), 0o600)
	code, _, errOut = runCLI(t, nil, "otlp", "--listen", "127.0.0.1:0", "--grpc-listen", "", "--record", f)
	if code != exitUnreadable || !strings.Contains(errOut, "exists") {
		t.Errorf("existing record: exit %d, %q", code, errOut)
	}
	empty := filepath.Join(t.TempDir(), "token")
	os.WriteFile(empty, nil, 0o600)
	code, _, errOut = runCLI(t, nil, "otlp", "--listen", "0.0.0.0:0", "--token-file", empty)
	if code != exitUnreadable || !strings.Contains(errOut, "empty") {
		t.Errorf("empty token: exit %d, %q", code, errOut)
	}
}
