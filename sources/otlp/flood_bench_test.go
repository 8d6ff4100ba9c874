package otlp_test

import (
	"bytes"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentwatch/agentwatch/sources/otlp"
)

// heapPeak samples the heap's objects and goroutine stacks until stop is
// closed and returns the most they held (a deep decoder's cost is in its
// stack).
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64()+s[1].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// BenchmarkFlood sends 60 requests of 15 MB at once, with the token, as
// a stranger who has it might, and reports the most heap and stack the
// receiver held (peak-MiB), with requests in flight bounded as they are by
// default (4) and, for the ratio, with room for all 60 at once.
//
//	go test ./sources/otlp/ -run '^$' -bench Flood -benchtime 3x
func BenchmarkFlood(b *testing.B) {
	td := ptrace.NewTraces()
	sp := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("execute_tool x")
	sp.Attributes().PutStr("gen_ai.tool.call.result", strings.Repeat("x", 15<<20))
	body, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	td = ptrace.Traces{}
	for _, c := range []struct {
		name     string
		inFlight int
	}{{"in-flight=4", 0}, {"in-flight=60", 60}} {
		b.Run(c.name, func(b *testing.B) {
			rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0", Token: "t", MaxInFlight: c.inFlight, Wait: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			rcv.Serve()
			defer rcv.Close()
			go func() {
				for a := range rcv.Arrivals() {
					a.Kept(nil)
				}
			}()
			var worst uint64
			for b.Loop() {
				runtime.GC()
				stop := make(chan struct{})
				peak := heapPeak(stop)
				var wg sync.WaitGroup
				for range 60 {
					wg.Go(func() {
						req, _ := http.NewRequest("POST", "http://"+rcv.HTTPAddr()+"/v1/traces", bytes.NewReader(body))
						req.Header.Set("Content-Type", "application/x-protobuf")
						req.Header.Set("Authorization", "Bearer t")
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						resp.Body.Close()
						if resp.StatusCode != 200 {
							b.Errorf("status %d", resp.StatusCode)
						}
					})
				}
				wg.Wait()
				close(stop)
				worst = max(worst, <-peak)
			}
			b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
		})
	}
}

// BenchmarkDeepJSON decodes one 15 MB OTLP/JSON request nested 550,000
// levels deep (it once cost 886 MB) and reports the most heap and stack
// it held.
//
//	go test ./sources/otlp/ -run '^$' -bench DeepJSON -benchtime 3x
func BenchmarkDeepJSON(b *testing.B) {
	const depth = 550_000
	var buf bytes.Buffer
	buf.WriteString(`{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":`)
	buf.WriteString(strings.Repeat(`{"arrayValue":{"values":[`, depth/3))
	buf.WriteString(`{"intValue":"1"}`)
	buf.WriteString(strings.Repeat(`]}}`, depth/3))
	buf.WriteString(`}]}}]}`)
	body := buf.Bytes()
	b.SetBytes(int64(len(body)))
	var worst uint64
	for b.Loop() {
		runtime.GC()
		stop := make(chan struct{})
		peak := heapPeak(stop)
		_, err := otlp.DecodeJSON(otlp.SignalTraces, body)
		if err == nil {
			b.Log("decoded, not refused")
		}
		close(stop)
		worst = max(worst, <-peak)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
}
