package app

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
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

// receiving is agentwatch otlp without its screen: the receiver on
// loopback, each request mapped as it arrives and kept in a recording,
// the records folded as the screen folds them.
type receiving struct {
	rcv    *otlp.Receiver
	tr     *otel.Translator
	record string
	done   chan error
	folded chan struct{}
	live   *fold.Threads
	out    chan model.Batch
}

func receive(t *testing.T) *receiving {
	t.Helper()
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	r := &receiving{rcv: rcv, tr: otel.New(otel.Options{}), record: filepath.Join(t.TempDir(), "telemetry.jsonl"),
		done: make(chan error, 1), folded: make(chan struct{}), live: fold.NewThreads(fold.Options{}), out: make(chan model.Batch, 16)}
	rec, err := otlp.CreateRecorder(r.record)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		r.done <- translateArrivals(ctx, cancel, rcv.Arrivals(), rec, r.tr, r.out)
	}()
	go func() {
		defer close(r.folded)
		for b := range r.out {
			r.live.Apply(b.Source, b.Records...)
		}
	}()
	return r
}

// stop closes the receiver once everything sent was taken, and waits for
// the last records to be folded.
func (r *receiving) stop(t *testing.T) {
	t.Helper()
	r.rcv.Close()
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	close(r.out)
	<-r.folded
}

// sdkClient is an agent's telemetry as the OpenTelemetry Go SDK sends it:
// batch processors, OTLP/HTTP exporters with gzip, no retries.
func sdkClient(t *testing.T, addr, service, host string, oneSpanPerRequest bool) *otlptest.Client {
	t.Helper()
	ctx := context.Background()
	res := resource.NewSchemaless(attribute.String("service.name", service), attribute.String("host.name", host))
	le, err := otlploghttp.New(ctx, otlploghttp.WithEndpoint(addr), otlploghttp.WithInsecure(),
		otlploghttp.WithCompression(otlploghttp.GzipCompression), otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	te, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(addr), otlptracehttp.WithInsecure(),
		otlptracehttp.WithCompression(otlptracehttp.GzipCompression), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	var batch []sdktrace.BatchSpanProcessorOption
	if oneSpanPerRequest {
		batch = append(batch, sdktrace.WithMaxExportBatchSize(1))
	}
	c := &otlptest.Client{
		TP: sdktrace.NewTracerProvider(sdktrace.WithBatcher(te, batch...), sdktrace.WithResource(res)),
		LP: sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewBatchProcessor(le)), sdklog.WithResource(res)),
	}
	t.Cleanup(func() { c.Shutdown(context.Background()) })
	return c
}

// claudeSession sends one prompt of a Claude Code session through c, as
// Claude Code sends it (neither tool_decision nor tool_result names the
// call), each event exported in a request of its own. With resultFirst,
// the Bash command's result comes before its decision: a Collector's
// exporters send batches in parallel, and a retried batch comes late.
func claudeSession(t *testing.T, c *otlptest.Client, session string, t0 time.Time, resultFirst bool) {
	t.Helper()
	ctx := context.Background()
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	type event struct {
		at   int
		name string
		kv   []string
	}
	events := []event{
		{0, "user_prompt", []string{"prompt", "make the tests pass", "prompt_length", "19"}},
		{1200, "api_request", []string{"model", "claude-sonnet-4", "input_tokens", "1234", "output_tokens", "567", "cost_usd", "0.0213", "duration_ms", "1150"}},
		{1300, "tool_decision", []string{"tool_name", "Bash", "decision", "accept", "source", "config"}},
		{4300, "tool_result", []string{"tool_name", "Bash", "success", "true", "duration_ms", "2990", "decision_type", "accept",
			"decision_source", "config", "tool_parameters", `{"bash_command":"go","full_command":"go test ./...","description":"Run the tests"}`}},
		{5000, "api_error", []string{"model", "claude-sonnet-4", "error", "overloaded", "status_code", "529", "attempt", "2"}},
		{6000, "tool_decision", []string{"tool_name", "Edit", "decision", "reject", "source", "user_reject"}},
	}
	if resultFirst {
		events[2], events[3] = events[3], events[2]
	}
	for _, e := range events {
		c.ClaudeEvent(ctx, ms(e.at), e.name, session, e.kv...)
		if err := c.Flush(ctx); err != nil {
			t.Error(err)
		}
	}
}

// Twenty Claude Code agents and a GenAI agent framework send their
// telemetry through the OpenTelemetry Go SDK (batch processors, OTLP/HTTP
// with gzip) to the receiver, at once, a request per event or span, some
// of them out of order. Each session folds to what it did: its Bash
// command one step, finished and labelled with the command, its refused
// Edit cancelled, no step left pending; the rows in words' data. The
// recording (--record) folds to the same threads, runs and steps.
func TestOTLPThroughTheSDK(t *testing.T) {
	r := receive(t)
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			c := sdkClient(t, r.rcv.HTTPAddr(), "claude-code", fmt.Sprintf("dev%02d", i), false)
			claudeSession(t, c, "sess", t0.Add(time.Duration(i)*time.Second), i%2 == 1)
		})
	}
	wg.Go(func() {
		c := sdkClient(t, r.rcv.HTTPAddr(), "support-bot", "web1", true)
		c.AgentRun(context.Background(), "conv-7", t0)
		if err := c.Flush(context.Background()); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	r.stop(t)

	live := r.live
	if live.Len() != 21 {
		t.Fatalf("%d threads, want 21", live.Len())
	}
	for _, th := range live.List() {
		for _, d := range th.Fold.Diagnostics() {
			t.Errorf("thread %s: problem %+v", th.ID, d)
		}
		for _, s := range th.Fold.Steps() {
			if !s.Status.Done() {
				t.Errorf("thread %s: step %s %q is %s", th.ID, s.ToolCallID, s.Label(), s.Status)
			}
		}
		if !strings.HasPrefix(th.ID, "claude-code/") {
			continue
		}
		var labels []string
		for _, s := range th.Fold.Steps() {
			labels = append(labels, s.Label())
		}
		if want := []string{"Ran command · go test ./...", "Edit cancelled"}; !slices.Equal(labels, want) {
			t.Errorf("thread %s: steps %q, want %q", th.ID, labels, want)
		}
		rows := map[string]int{}
		for _, it := range th.Fold.Items() {
			if it.Kind == model.ItemActivity {
				rows[it.Name]++
			}
		}
		if rows["permission"] != 2 || rows["usage"] != 1 || rows["error"] != 1 {
			t.Errorf("thread %s: rows %v", th.ID, rows)
		}
	}
	gen := live.Find("support-bot/web1/conv-7")
	if len(gen) != 1 {
		t.Fatal("no GenAI thread")
	}
	var genSteps []string
	for _, s := range gen[0].Fold.Steps() {
		genSteps = append(genSteps, s.ToolName+" "+string(s.Status)+" "+string(s.ArgsJSON))
	}
	if want := []string{`lookup_order completed {"id":"4411"}`, "refund failed "}; !slices.Equal(genSteps, want) {
		t.Errorf("GenAI steps %q, want %q", genSteps, want)
	}

	t.Run("recording", func(t *testing.T) {
		recs, err := readOTLP(r.record, nil)
		if err != nil {
			t.Fatal(err)
		}
		file := fold.NewThreads(fold.Options{})
		file.Apply(r.record, recs...)
		liveRuns, liveSteps := runsAndSteps(live)
		fileRuns, fileSteps := runsAndSteps(file)
		if !slices.Equal(liveRuns, fileRuns) {
			t.Errorf("the recording's runs:\n%s\nthe live screen's:\n%s", strings.Join(fileRuns, "\n"), strings.Join(liveRuns, "\n"))
		}
		if !slices.Equal(liveSteps, fileSteps) {
			t.Errorf("the recording's steps:\n%s\nthe live screen's:\n%s", strings.Join(fileSteps, "\n"), strings.Join(liveSteps, "\n"))
		}
		// Ended as a file's runs end, the live fold is the recording's,
		// row for row.
		live.Apply(otlpSource, r.tr.Finish()...)
		want, problems := otlptest.Digest(live)
		got, fileProblems := otlptest.Digest(file)
		for _, p := range append(problems, fileProblems...) {
			t.Error(p)
		}
		if got != want {
			t.Errorf("the recording folds to\n%s\nthe live screen, its runs ended, to\n%s", got, want)
		}
	})
}

// runsAndSteps are the runs (thread and id) and steps (as otlptest tells
// them, with their thread) of every thread, sorted.
func runsAndSteps(ts *fold.Threads) (runs, steps []string) {
	for _, th := range ts.List() {
		for _, r := range th.Fold.Runs() {
			runs = append(runs, th.ID+" "+r.RunID)
		}
		for _, s := range th.Fold.Steps() {
			steps = append(steps, th.ID+otlptest.StepLine(s))
		}
	}
	slices.Sort(runs)
	slices.Sort(steps)
	return runs, steps
}
