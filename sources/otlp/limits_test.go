package otlp_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agentwatch/agentwatch/sources/otlp"
)

// post sends body to the receiver's OTLP/HTTP path and returns the status
// and the answer's body.
func post(t *testing.T, rcv *otlp.Receiver, path, ctype string, body []byte) (int, string, http.Header) {
	t.Helper()
	// A request the receiver holds for good fails the test, not hangs it.
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post("http://"+rcv.HTTPAddr()+path, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// traceOf is a protobuf trace request of spans spans, each with attrs
// attributes, named by tag.
func traceOf(t *testing.T, tag string, spans, attrs int) []byte {
	t.Helper()
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	for i := range spans {
		sp := ss.Spans().AppendEmpty()
		sp.SetName(fmt.Sprintf("%s %d", tag, i))
		for j := range attrs {
			sp.Attributes().PutInt(fmt.Sprintf("a%d", j), int64(j))
		}
	}
	b, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// At most MaxInFlight requests are held at once, over both transports:
// while the reader holds two, a third waits for a place and is asked to
// retry (HTTP 429 with Retry-After, gRPC RESOURCE_EXHAUSTED) without its
// body being read; once the reader lets them go, requests are taken again.
func TestInFlightBounded(t *testing.T) {
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0", MaxInFlight: 2, Wait: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	defer rcv.Close()
	held := make(chan otlp.Arrival, 8)
	go func() {
		for a := range rcv.Arrivals() {
			held <- a
		}
	}()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			if status, body, _ := post(t, rcv, "/v1/traces", "application/x-protobuf", traceOf(t, fmt.Sprint("held", i), 1, 0)); status != 200 {
				t.Errorf("held request %d: %d %s", i, status, body)
			}
		})
	}
	var first []otlp.Arrival
	for range 2 {
		first = append(first, <-held)
	}
	status, body, h := post(t, rcv, "/v1/traces", "application/x-protobuf", traceOf(t, "third", 1, 0))
	if status != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(body, "2 requests at once") {
		t.Errorf("a third request over HTTP: %d %q (Retry-After %q), want 429 saying why", status, body, h.Get("Retry-After"))
	}
	if st := exportRawStatus(t, rcv.GRPCAddr(), nil, traceOf(t, "fourth", 1, 0)); st.Code() != codes.ResourceExhausted || !retryable(st) {
		t.Errorf("a fourth over gRPC: %v %v, want RESOURCE_EXHAUSTED with a RetryInfo", st.Code(), st.Details())
	}
	for _, a := range first {
		a.Kept(nil)
	}
	wg.Wait()
	go func() {
		for a := range held {
			a.Kept(nil)
		}
	}()
	if status, body, _ := post(t, rcv, "/v1/traces", "application/x-protobuf", traceOf(t, "after", 1, 0)); status != 200 {
		t.Errorf("a request once the reader let go: %d %s", status, body)
	}
	if c := rcv.Counts(); c.Taken != 3 || c.Refused[otlp.Busy] != 2 {
		t.Errorf("counts %s, want 3 taken and 2 too many at once", c)
	}
}

// At most MaxWaiting requests wait for a place in flight: past them a
// request is asked to retry at once, not after the wait.
func TestWaitingBounded(t *testing.T) {
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0", MaxInFlight: 1, MaxWaiting: 1, Wait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	defer rcv.Close()
	held := make(chan otlp.Arrival, 4)
	go func() {
		for a := range rcv.Arrivals() {
			held <- a
		}
	}()
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			if status, body, _ := post(t, rcv, "/v1/traces", "application/x-protobuf", traceOf(t, fmt.Sprint("first", i), 1, 0)); status != 200 {
				t.Errorf("request %d: %d %s", i, status, body)
			}
		})
	}
	first := <-held
	for rcv.Counts().Waiting != 1 {
		runtime.Gosched()
	}
	status, body, _ := post(t, rcv, "/v1/traces", "application/x-protobuf", traceOf(t, "third", 1, 0))
	if status != http.StatusTooManyRequests {
		t.Errorf("a third request with one in flight and one waiting: %d %s, want 429", status, body)
	}
	first.Kept(nil)
	(<-held).Kept(nil)
	wg.Wait()
	if c := rcv.Counts(); c.Taken != 2 || c.Refused[otlp.Busy] != 1 || c.Waiting != 0 {
		t.Errorf("counts %+v", c)
	}
}

// Each limit on what one request holds has its answer, and its count:
// JSON nested too deeply is refused unread (400), a request of too many
// spans or a span of too many attributes is refused (413), and the
// receiver goes on.
func TestRequestLimits(t *testing.T) {
	rcv, stop := start(t, otlp.Options{MaxItems: 10, MaxAttributes: 5})
	deep := []byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":` +
		strings.Repeat(`{"arrayValue":{"values":[`, 400) + `{"intValue":"1"}` + strings.Repeat(`]}}`, 400) + `}]}}]}`)
	for _, c := range []struct {
		name, ctype string
		body        []byte
		status      int
		says        string
		code        codes.Code
	}{
		{"nested 1,207 deep", "application/json", deep, 400, "1207 levels deep, and agentwatch reads at most 1000", codes.OK},
		{"11 spans", "application/x-protobuf", traceOf(t, "many", 11, 0), 413, "11 spans in one request: agentwatch takes at most 10", codes.ResourceExhausted},
		{"6 attributes", "application/x-protobuf", traceOf(t, "wide", 1, 6), 413, "a span with 6 attributes: agentwatch takes at most 5", codes.ResourceExhausted},
		{"10 spans of 5 attributes", "application/x-protobuf", traceOf(t, "fits", 10, 5), 200, "", codes.OK},
	} {
		status, body, _ := post(t, rcv, "/v1/traces", c.ctype, c.body)
		if status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s over HTTP: %d %q, want %d saying %q", c.name, status, body, c.status, c.says)
		}
		if c.code != codes.OK {
			if code := exportRaw(t, rcv.GRPCAddr(), "", c.body); code != c.code {
				t.Errorf("%s over gRPC: %v, want %v", c.name, code, c.code)
			}
		}
	}
	if got := stop(); len(got) != 1 {
		t.Errorf("%d requests taken, want the one that fits", len(got))
	}
	c := rcv.Counts()
	if c.Refused[otlp.TooDeep] != 1 || c.Refused[otlp.TooMany] != 4 || c.Taken != 1 {
		t.Errorf("counts %s", c)
	}
	if want := "1 request · 5 refused: 4 too many spans, records or attributes, 1 nested too deeply"; c.String() != want {
		t.Errorf("counts say %q, want %q", c, want)
	}
}

// Headers, read before the token is checked, are bounded: 100 KB of them
// is refused over HTTP (431) and gRPC, and nothing is taken.
func TestHeadersBounded(t *testing.T) {
	rcv, stop := start(t, otlp.Options{Token: "s3cret"})
	req, err := http.NewRequest("POST", "http://"+rcv.HTTPAddr()+"/v1/traces", bytes.NewReader(aTrace(t)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("Authorization", "Bearer s3cret")
	req.Header.Set("X-Padding", strings.Repeat("x", 100<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("100 KB of headers over HTTP: %d, want 431", resp.StatusCode)
	}
	md := metadata.Pairs("authorization", "Bearer s3cret", "x-padding", strings.Repeat("x", 100<<10))
	if code := exportRawMD(t, rcv.GRPCAddr(), md, aTrace(t)); code == codes.OK {
		t.Errorf("100 KB of metadata over gRPC: taken")
	}
	if got := stop(); len(got) != 0 {
		t.Errorf("%d requests taken", len(got))
	}
}

// retryable reports whether a status carries a RetryInfo, which OTLP's
// exporters need to retry RESOURCE_EXHAUSTED.
func retryable(st *status.Status) bool {
	for _, d := range st.Details() {
		if _, ok := d.(*errdetails.RetryInfo); ok {
			return true
		}
	}
	return false
}
