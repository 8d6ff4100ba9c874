package otlp_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// aTrace is a small valid trace export request in protobuf.
func aTrace(t *testing.T) []byte {
	t.Helper()
	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("execute_tool x")
	sp.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// zeros is an endless body that costs no memory.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func gz(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// Bad requests get the status OTLP/HTTP asks for and a google.rpc.Status
// that says what was wrong, in the request's encoding; none reaches the
// screen, and the receiver goes on.
func TestRefusedRequests(t *testing.T) {
	rcv, stop := start(t, otlp.Options{MaxBody: 1 << 20})
	url := "http://" + rcv.HTTPAddr()
	valid := aTrace(t)
	big := gz(t, bytes.Repeat([]byte{0}, 2<<20))
	for _, c := range []struct {
		name, method, path, ctype, encoding string
		body                                io.Reader
		length                              int64
		status                              int
		says                                string
	}{
		{"truncated protobuf", "POST", "/v1/traces", "application/x-protobuf", "", bytes.NewReader(valid[:len(valid)-3]), -1, 400, "not an OTLP/protobuf traces export request"},
		{"garbage JSON", "POST", "/v1/logs", "application/json", "", strings.NewReader(`{"resourceLogs":[{"scopeLogs":7}]}`), -1, 400, "not an OTLP/JSON logs export request"},
		{"wrong content type", "POST", "/v1/traces", "text/plain", "", bytes.NewReader(valid), -1, 415, "content type"},
		{"wrong encoding", "POST", "/v1/traces", "application/x-protobuf", "br", bytes.NewReader(valid), -1, 415, "content encoding"},
		{"not gzip", "POST", "/v1/traces", "application/x-protobuf", "gzip", bytes.NewReader(valid), -1, 400, "not gzip"},
		{"100 MB body", "POST", "/v1/traces", "application/x-protobuf", "", io.LimitReader(zeros{}, 100<<20), 100 << 20, 413, "over the limit"},
		{"100 MB body, chunked", "POST", "/v1/traces", "application/x-protobuf", "", io.LimitReader(zeros{}, 100<<20), -1, 413, "over the limit"},
		{"gzip bomb", "POST", "/v1/traces", "application/x-protobuf", "gzip", bytes.NewReader(big), int64(len(big)), 413, "once unzipped"},
		{"GET", "GET", "/v1/traces", "application/x-protobuf", "", nil, 0, 405, "POST only"},
		{"no such path", "POST", "/v1/spans", "application/x-protobuf", "", bytes.NewReader(valid), -1, 404, "no such path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, url+c.path, c.body)
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = c.length
			if c.length < 0 && c.body != nil {
				req.ContentLength = -1
				req.TransferEncoding = []string{"chunked"}
			}
			req.Header.Set("Content-Type", c.ctype)
			if c.encoding != "" {
				req.Header.Set("Content-Encoding", c.encoding)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				// A server may close a connection whose body it will not
				// read; the status must have been sent first.
				t.Fatalf("no answer: %v", err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.status, body)
			}
			var st spb.Status
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				err = protojson.Unmarshal(body, &st)
			} else {
				err = proto.Unmarshal(body, &st)
			}
			if err != nil || !strings.Contains(st.GetMessage(), c.says) {
				t.Fatalf("status body %q (%v), want it to say %q", st.GetMessage(), err, c.says)
			}
		})
	}
	// Metrics are answered with a partial success that says they are not kept.
	md := pmetric.NewMetrics()
	md.ResourceMetrics().AppendEmpty().ScopeMetrics().AppendEmpty().Metrics().AppendEmpty().SetEmptyGauge().DataPoints().AppendEmpty().SetIntValue(1)
	b, _ := pmetricotlp.NewExportRequestFromMetrics(md).MarshalJSON()
	resp, err := http.Post(url+"/v1/metrics", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	out := pmetricotlp.NewExportResponse()
	if resp.StatusCode != 200 || out.UnmarshalJSON(body) != nil || out.PartialSuccess().RejectedDataPoints() != 1 {
		t.Fatalf("metrics: %d %s", resp.StatusCode, body)
	}
	// A valid request is still taken after all that.
	resp, err = http.Post(url+"/v1/traces", "application/x-protobuf", bytes.NewReader(valid))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("valid request: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := stop(); len(got) != 1 || got[0].Signal != otlp.SignalTraces || got[0].Via != "http/protobuf" {
		t.Fatalf("arrivals %+v", got)
	}
}

// With a token, exporters without it (or with another) are refused over
// HTTP (401) and gRPC (UNAUTHENTICATED), and exporters with it taken.
func TestToken(t *testing.T) {
	rcv, stop := start(t, otlp.Options{Token: "s3cret"})
	ctx := context.Background()
	for _, tr := range []otlptest.Transport{otlptest.HTTP, otlptest.GRPC} {
		addr := rcv.HTTPAddr()
		if tr == otlptest.GRPC {
			addr = rcv.GRPCAddr()
		}
		for _, tok := range []string{"", "wrong"} {
			cl, err := otlptest.New(ctx, tr, addr, tok, "svc", "h")
			if err != nil {
				t.Fatal(err)
			}
			cl.ClaudeCode(ctx, "s", t0)
			err = cl.Flush(ctx)
			if err == nil || !(strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "Unauthenticated")) {
				t.Errorf("transport %d, token %q: flush error %v, want refused", tr, tok, err)
			}
			cl.Shutdown(ctx)
		}
		cl, err := otlptest.New(ctx, tr, addr, "s3cret", "svc", "h")
		if err != nil {
			t.Fatal(err)
		}
		cl.ClaudeCode(ctx, "s", t0)
		if err := cl.Shutdown(ctx); err != nil {
			t.Errorf("transport %d with the token: %v", tr, err)
		}
	}
	if got := stop(); len(got) != 2 {
		t.Fatalf("%d requests taken, want the 2 with the token", len(got))
	}
}

// An address off loopback needs a token.
func TestTokenRequiredOffLoopback(t *testing.T) {
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0"} {
		if _, err := otlp.Listen(otlp.Options{HTTP: addr}); err == nil || !strings.Contains(err.Error(), "token") {
			t.Errorf("%s: %v, want a token required", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "[::1]:0"} {
		if !otlp.Loopback(addr) {
			t.Errorf("%s is loopback", addr)
		}
	}
}
