package serve

// This file holds the soak's OpenTelemetry side: the OTLP receiver on
// loopback, four exporters of the OpenTelemetry Go SDK sending GenAI
// agent runs to it, and what the receiver took, folded as agentwatch
// otlp folds it.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

const (
	// soakRequests are sent by soakExporters together, a GenAI agent run
	// (soakSpansPerRun spans, a conversation of its own) per request.
	soakRequests    = 1000
	soakExporters   = 4
	soakSpansPerRun = 5
)

// soakOTLP is the receiver and what it has taken.
type soakOTLP struct {
	rcv  *otlp.Receiver
	done chan struct{}
	// Set by the reading goroutine; read once done is closed.
	traceRequests, spans, otherRequests int
	// open are the conversations whose run has not ended, each folded
	// on its own; conversations counts those that were tallied, and
	// shapes their threads by what each held (soakRunShape).
	open          map[string]*fold.Threads
	conversations int
	shapes        map[string]int
	// exporters are the goroutines sending; sent counts the runs they
	// sent without an error.
	exporters sync.WaitGroup
	mu        sync.Mutex
	sent      int
}

// startSoakOTLP starts the receiver, over HTTP and gRPC on loopback, and
// a reader that maps each request as it arrives and folds its records,
// as agentwatch otlp does.
func startSoakOTLP(t *testing.T) *soakOTLP {
	t.Helper()
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	t.Cleanup(func() { rcv.Close() })
	o := &soakOTLP{rcv: rcv, done: make(chan struct{}), open: map[string]*fold.Threads{},
		shapes: map[string]int{}}
	go func() {
		defer close(o.done)
		tr := otel.New(otel.Options{})
		for a := range rcv.Arrivals() {
			if a.Signal != otlp.SignalTraces {
				o.otherRequests++
				a.Kept(nil)
				continue
			}
			o.traceRequests++
			o.spans += a.Items()
			tr.AddTraces(a.Traces)
			o.fold(tr.Flush(), false)
			a.Kept(nil) // its exporter is answered once it is taken
		}
		o.fold(tr.Finish(), true)
	}()
	return o
}

// fold folds records of the receiver, each conversation's (the thread
// the translator names) into threads of its own, and tallies each
// conversation whose run has ended, or every one left when last, by what
// it holds, and then lets it go: what the test would keep of a thousand
// conversations is not what the soak measures.
func (o *soakOTLP) fold(recs []model.Record, last bool) {
	byConv := map[string][]model.Record{}
	for _, r := range recs {
		byConv[r.Thread] = append(byConv[r.Thread], r)
	}
	for conv, rs := range byConv {
		th := o.open[conv]
		if th == nil {
			th = fold.NewThreads(fold.Options{})
			o.open[conv] = th
		}
		th.Apply("otlp", rs...)
		if runs := th.List()[0].Fold.Runs(); len(runs) == 1 && runs[0].Status.Done() {
			o.tally(conv)
		}
	}
	if last {
		for conv := range o.open {
			o.tally(conv)
		}
	}
}

// tally counts what conversation conv holds and forgets it.
func (o *soakOTLP) tally(conv string) {
	o.conversations++
	for _, th := range o.open[conv].List() {
		o.shapes[soakRunShape(th.Fold)]++
	}
	delete(o.open, conv)
}

// send starts the exporters, which send soakRequests runs between them,
// spread evenly over d, and returns at once.
func (o *soakOTLP) send(t *testing.T, d time.Duration) {
	t.Cleanup(o.exporters.Wait) // no exporter reports after the test
	per := soakRequests / soakExporters
	every := d / time.Duration(per)
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for e := range soakExporters {
		c := o.exporter(t, e)
		o.exporters.Go(func() {
			ctx := context.Background()
			tick := time.NewTicker(every)
			defer tick.Stop()
			for k := range per {
				c.AgentRun(ctx, fmt.Sprintf("conv-%d-%d", e, k), t0.Add(time.Duration(k)*3*time.Second))
				if err := c.Flush(ctx); err != nil {
					t.Errorf("exporter %d, run %d: %v", e, k, err)
				} else {
					o.mu.Lock()
					o.sent++
					o.mu.Unlock()
				}
				<-tick.C
			}
		})
	}
}

// exporter is exporter e's telemetry: over OTLP/HTTP when e is even,
// OTLP/gRPC when odd. Its spans wait in the SDK's batcher until a Flush,
// so each run is one request.
func (o *soakOTLP) exporter(t *testing.T, e int) *otlptest.Client {
	t.Helper()
	ctx := context.Background()
	var (
		exp sdktrace.SpanExporter
		err error
	)
	if e%2 == 0 {
		exp, err = otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(o.rcv.HTTPAddr()), otlptracehttp.WithInsecure(),
			otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	} else {
		exp, err = otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(o.rcv.GRPCAddr()), otlptracegrpc.WithInsecure(),
			otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false}))
	}
	if err != nil {
		t.Fatal(err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "soak-agent"), attribute.String("host.name", fmt.Sprintf("host%d", e)))
	c := &otlptest.Client{
		TP: sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(time.Hour)), sdktrace.WithResource(res)),
		LP: sdklog.NewLoggerProvider(sdklog.WithResource(res)),
	}
	t.Cleanup(func() { c.Shutdown(context.Background()) })
	return c
}

// check waits for the exporters, closes the receiver once it has taken
// all they sent, and fails the test unless every request and span
// arrived and every run folded into a conversation of its own: one run,
// its lookup_order call completed and its refund failed, as sent.
func (o *soakOTLP) check(t *testing.T) {
	t.Helper()
	o.exporters.Wait()
	o.rcv.Close()
	<-o.done
	t.Logf("OTLP: %d runs sent; %d trace requests with %d spans received, %d other requests; %d conversations",
		o.sent, o.traceRequests, o.spans, o.otherRequests, o.conversations)
	if o.sent != soakRequests || o.traceRequests != soakRequests || o.spans != soakRequests*soakSpansPerRun || o.otherRequests != 0 {
		t.Errorf("OTLP: %d of %d runs sent; %d trace requests of %d and %d spans of %d received, and %d other requests",
			o.sent, soakRequests, o.traceRequests, soakRequests, o.spans, soakRequests*soakSpansPerRun, o.otherRequests)
	}
	if o.conversations != soakRequests {
		t.Errorf("OTLP: %d conversations, want one per run, %d", o.conversations, soakRequests)
	}
	const want = "run completed: lookup_order completed, refund failed"
	if o.shapes[want] != soakRequests || len(o.shapes) != 1 {
		t.Errorf("OTLP: %d runs folded to %q, want every one of %d; all the runs folded to %v", o.shapes[want], want, soakRequests, o.shapes)
	}
}

// soakRunShape says in a few words what a fold of one GenAI agent run
// holds: its runs' status, its steps' tools and status, any problem.
func soakRunShape(f *fold.Fold) string {
	var b strings.Builder
	for _, r := range f.Runs() {
		fmt.Fprintf(&b, "run %s", r.Status)
	}
	for i, s := range f.Steps() {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s %s", sep, s.ToolName, s.Status)
	}
	for _, d := range f.Diagnostics() {
		fmt.Fprintf(&b, "; problem %s", d.Message)
	}
	return b.String()
}
