package cli

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// latencyOut timestamps each line written to it: the line for event i says
// "run r<i> started" or "run r<i> completed".
type latencyOut struct {
	mu   sync.Mutex
	rest []byte
	at   map[string]time.Time
}

func (o *latencyOut) Write(p []byte) (int, error) {
	now := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.rest = append(o.rest, p...)
	for {
		i := bytes.IndexByte(o.rest, '\n')
		if i < 0 {
			return len(p), nil
		}
		o.at[string(o.rest[:i])] = now
		o.rest = o.rest[i+1:]
	}
}

// latencyEvents are n events that each print one line, and those lines.
func latencyEvents(n int) (events, lines []string) {
	for i := range n / 2 {
		events = append(events,
			fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t","runId":"r%d"}`, i),
			fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":"t","runId":"r%d"}`, i))
		lines = append(lines, fmt.Sprintf("run r%d started", i), fmt.Sprintf("run r%d completed", i))
	}
	return events, lines
}

// reportLatency reports the median, 99th percentile and worst time from an
// event's send to its line printed.
func reportLatency(b *testing.B, sent []time.Time, lines []string, out *latencyOut) {
	var d []time.Duration
	for i, l := range lines {
		at, ok := out.at[l]
		if !ok {
			b.Fatalf("line %q never printed", l)
		}
		d = append(d, at.Sub(sent[i]))
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(d[len(d)-1].Microseconds())/1000, "worst-ms")
}

// BenchmarkLiveLatency is the time from an event sent to its line printed by
// --plain, for standard input and for connect (SSE over HTTP), with an event
// every 2 ms: the budget is a p99 under 50 ms.
//
//	go test ./cli/ -run '^$' -bench LiveLatency -benchtime 1x
func BenchmarkLiveLatency(b *testing.B) {
	const n, every = 2000, 2 * time.Millisecond
	events, lines := latencyEvents(n)
	b.Run("stdin", func(b *testing.B) {
		for b.Loop() {
			pr, pw := io.Pipe()
			out := &latencyOut{at: map[string]time.Time{}}
			done := make(chan int, 1)
			go func() { done <- Run([]string{"--plain", "-"}, pr, out, io.Discard) }()
			sent := make([]time.Time, len(events))
			for i, ev := range events {
				sent[i] = time.Now()
				fmt.Fprintln(pw, ev)
				time.Sleep(every)
			}
			pw.Close()
			<-done
			reportLatency(b, sent, lines, out)
		}
	})
	b.Run("connect", func(b *testing.B) {
		for b.Loop() {
			sent := make([]time.Time, len(events))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for i, ev := range events {
					sent[i] = time.Now()
					fmt.Fprintf(w, "data: %s\n\n", ev)
					w.(http.Flusher).Flush()
					time.Sleep(every)
				}
			}))
			out := &latencyOut{at: map[string]time.Time{}}
			Run([]string{"connect", srv.URL, "--plain"}, nil, out, io.Discard)
			srv.Close()
			reportLatency(b, sent, lines, out)
		}
	})
}
