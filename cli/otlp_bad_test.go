package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
)

// zeroReader is an endless body of zeros that costs no memory.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Bad input sent to agentwatch otlp while it shows a run: a truncated
// protobuf, a wrong content type, a 100 MB body and a wrong token (over
// HTTP and gRPC) each get a clear error response; the receiver keeps
// running, what it showed stays shown, and the next run shows too.
func TestOTLPBadInputKeepsWhatIsShown(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600)
	out := &syncbuf.Buffer{}
	addrs := make(chan [2]string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- app.New(&app.Options{Plain: true, Stdout: out, Stderr: io.Discard}).ReceiveOTLP(ctx,
			&app.OTLPOptions{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0", TokenFile: tokenFile,
				Ready: func(h, g string) { addrs <- [2]string{h, g} }})
	}()
	a := <-addrs
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	claude, err := otlptest.New(ctx, otlptest.HTTP, a[0], "s3cret", "claude-code", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	claude.ClaudeCode(ctx, "s1", t0)
	if err := claude.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	shown := []string{"you: make the tests pass", "step 1 execute completed · Ran command · go test ./... · 900ms", "step 2 edit cancelled · Edit cancelled"}
	waitFor(t, out, shown...)
	before := out.String()

	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("execute_tool x")
	sp.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	valid, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, ctype, token string
		body               io.Reader
		length             int64
		status             int
		says               string
	}{
		{"truncated protobuf", "application/x-protobuf", "s3cret", bytes.NewReader(valid[:len(valid)-3]), -1, 400, "not an OTLP/protobuf traces export request"},
		{"wrong content type", "text/plain", "s3cret", bytes.NewReader(valid), -1, 415, "content type"},
		{"100 MB body", "application/x-protobuf", "s3cret", io.LimitReader(zeroReader{}, 100<<20), 100 << 20, 413, "over the limit"},
		{"wrong token", "application/x-protobuf", "guess", bytes.NewReader(valid), -1, 401, "bearer token"},
	} {
		req, err := http.NewRequest("POST", "http://"+a[0]+"/v1/traces", c.body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = c.length
		req.Header.Set("Content-Type", c.ctype)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: no answer: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !bytes.Contains(body, []byte(c.says)) {
			t.Errorf("%s: %d %q, want %d saying %q", c.name, resp.StatusCode, body, c.status, c.says)
		}
	}
	intruder, err := otlptest.New(ctx, otlptest.GRPC, a[1], "guess", "codex_cli_rs", "evil")
	if err != nil {
		t.Fatal(err)
	}
	intruder.Codex(ctx, "x", t0)
	if err := intruder.Flush(ctx); err == nil || !strings.Contains(err.Error(), "Unauthenticated") {
		t.Errorf("gRPC with a wrong token: %v, want Unauthenticated", err)
	}
	intruder.Shutdown(ctx)

	codex, err := otlptest.New(ctx, otlptest.GRPC, a[1], "s3cret", "codex_cli_rs", "ci-7")
	if err != nil {
		t.Fatal(err)
	}
	codex.Codex(ctx, "c9", t0)
	if err := codex.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "you: fix the build", "step 1 execute completed · Ran command · go build ./...")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	all := out.String()
	if !strings.HasPrefix(all, before) || strings.Contains(all, "problem") || strings.Contains(all, "evil") {
		t.Errorf("after the bad requests the lines were\n%s\nwant them to go on from\n%s\nwith no problem and nothing of the intruder", all, before)
	}
	for _, w := range shown {
		if strings.Count(all, w) != 1 {
			t.Errorf("%q shown %d times", w, strings.Count(all, w))
		}
	}
}
