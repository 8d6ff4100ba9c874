package otlp_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// start runs a receiver on loopback ports of its own, collecting what
// arrives; stop closes it and returns the arrivals.
func start(t *testing.T, opts otlp.Options) (*otlp.Receiver, func() []otlp.Arrival) {
	t.Helper()
	if opts.HTTP == "" && opts.GRPC == "" {
		opts.HTTP, opts.GRPC = "127.0.0.1:0", "127.0.0.1:0"
	}
	rcv, err := otlp.Listen(opts)
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	var got []otlp.Arrival
	done := make(chan struct{})
	go func() {
		defer close(done)
		for a := range rcv.Arrivals() {
			got = append(got, a)
			a.Kept(nil)
		}
	}()
	t.Cleanup(func() { rcv.Close() })
	return rcv, func() []otlp.Arrival {
		rcv.Close()
		<-done
		return got
	}
}

// foldArrivals maps arrivals in the order they came, as the live view
// does, and folds them.
func foldArrivals(t *testing.T, arrivals []otlp.Arrival) *fold.Threads {
	t.Helper()
	tr := otel.New(otel.Options{})
	ts := fold.NewThreads(fold.Options{})
	for _, a := range arrivals {
		switch a.Signal {
		case otlp.SignalTraces:
			tr.AddTraces(a.Traces)
		case otlp.SignalLogs:
			tr.AddLogs(a.Logs)
		}
		ts.Apply("otlp", tr.Flush()...)
	}
	for _, th := range ts.List() {
		for _, d := range th.Fold.Diagnostics() {
			t.Errorf("thread %s: #%d %s: %s [%s]", th.ID, d.Seq, d.Type, d.Message, d.Rule)
		}
	}
	return ts
}

func activities(th *fold.Thread, name string) []string {
	var out []string
	for _, it := range th.Fold.Items() {
		if it.Kind == model.ItemActivity && it.Name == name {
			out = append(out, string(it.Data))
		}
	}
	return out
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// Four processes on four machines export at once, over OTLP/HTTP and
// OTLP/gRPC, with the OpenTelemetry Go SDK, to one receiver (as a
// Collector's exporter would): each conversation is a thread, and the
// steps, messages, decisions and usage are as docs/OTEL.md says; trace and
// span ids arrive intact, in hex.
func TestExportersToOneReceiver(t *testing.T) {
	rcv, stop := start(t, otlp.Options{})
	ctx := context.Background()
	type sent struct {
		trace, failed string
	}
	var (
		mu   sync.Mutex
		runs = map[string]sent{}
		wg   sync.WaitGroup
	)
	for i, c := range []struct {
		tr   otlptest.Transport
		addr string
		what string
	}{
		{otlptest.HTTP, rcv.HTTPAddr(), "agent"}, {otlptest.GRPC, rcv.GRPCAddr(), "agent"},
		{otlptest.HTTP, rcv.HTTPAddr(), "claude"}, {otlptest.GRPC, rcv.GRPCAddr(), "codex"},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			host := fmt.Sprintf("host-%d", i)
			service := map[string]string{"agent": "support-bot", "claude": "claude-code", "codex": "codex_cli_rs"}[c.what]
			cl, err := otlptest.New(ctx, c.tr, c.addr, "", service, host)
			if err != nil {
				t.Error(err)
				return
			}
			switch c.what {
			case "agent":
				tr, failed := cl.AgentRun(ctx, "conv-"+host, t0)
				mu.Lock()
				runs[service+"/"+host+"/conv-"+host] = sent{tr, failed}
				mu.Unlock()
			case "claude":
				cl.ClaudeCode(ctx, "sess-"+host, t0)
			case "codex":
				cl.Codex(ctx, "conv-"+host, t0)
			}
			if err := cl.Shutdown(ctx); err != nil {
				t.Errorf("%s exporter: %v", host, err)
			}
		}()
	}
	wg.Wait()
	ts := foldArrivals(t, stop())
	if ts.Len() != 4 {
		t.Fatalf("%d threads, want 4", ts.Len())
	}
	for id, s := range runs {
		th := otlptest.Thread(t, ts, id)
		r := th.Fold.Runs()
		if len(r) != 1 || r[0].RunID != s.trace || r[0].Status != model.StatusCompleted {
			t.Errorf("%s: runs %+v, want the trace %s", id, r, s.trace)
		}
		steps := th.Fold.Steps()
		if len(steps) != 2 || steps[0].ToolCallID != "call_1" || steps[0].Status != model.StatusCompleted || steps[0].DurationMS != 400 ||
			string(steps[0].ArgsJSON) != `{"id":"4411"}` || steps[0].Result != `{"status":"shipped"}` {
			t.Fatalf("%s: steps %+v", id, steps)
		}
		if s1 := steps[1]; s1.ToolCallID != s.failed || s1.Status != model.StatusFailed || s1.Result != "not allowed" {
			t.Errorf("%s: failed step %+v, want call id %s", id, s1, s.failed)
		}
		if th.Title() != "where is order 4411?" {
			t.Errorf("%s: title %q", id, th.Title())
		}
		if u := activities(th, "usage"); len(u) != 2 {
			t.Errorf("%s: usage rows %q", id, u)
		}
	}
	cc := otlptest.Thread(t, ts, "claude-code/host-2/sess-host-2")
	if s := cc.Fold.Steps(); len(s) != 2 || s[0].Label() != "Ran command · go test ./..." || s[1].Status != model.StatusCancelled {
		t.Errorf("claude code steps %+v", s)
	}
	if p := activities(cc, "permission"); len(p) != 2 || p[1] != `{"decision":"reject","source":"user_reject","tool":"Edit","toolCallId":"toolu_2"}` {
		t.Errorf("claude code decisions %q", p)
	}
	if u := activities(cc, "usage"); len(u) != 1 || u[0] != `{"costUsd":0.006,"durationMs":380,"inputTokens":1500,"model":"claude-sonnet-4-5","outputTokens":60}` {
		t.Errorf("claude code usage %q", u)
	}
	cx := otlptest.Thread(t, ts, "codex_cli_rs/host-3/conv-host-3")
	if s := cx.Fold.Steps(); len(s) != 1 || s[0].Label() != "Ran command · go build ./..." || s[0].Result != "ok" {
		t.Errorf("codex steps %+v", s)
	}
	if p := activities(cx, "permission"); len(p) != 1 {
		t.Errorf("codex decisions %q", p)
	}
}
