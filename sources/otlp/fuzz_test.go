package otlp_test

import (
	"bytes"
	"os"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// FuzzDecode feeds any bytes to the OTLP decoders, as JSON and as
// protobuf, and what decodes on through the mapping and the fold: nothing
// may panic, and every record the mapping makes names its thread.
func FuzzDecode(f *testing.F) {
	b, err := os.ReadFile(fleet)
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		f.Add(line)
		f.Add(line[:len(line)/2])
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174","parentSpanId":"EEE19B7EC3C1B174","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]}]}]}]}`))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":"event.name","value":{"stringValue":"codex.tool_result"}},{"key":"duration_ms","value":{"stringValue":"-1e308"}}]}]}]}]}`))
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(bytes.Split(b, []byte("\n"))[2]); err == nil {
		if pb, err := req.MarshalProto(); err == nil {
			f.Add(pb)
			f.Add(pb[:len(pb)-5])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := otel.New(otel.Options{})
		for _, sig := range []otlp.Signal{otlp.SignalTraces, otlp.SignalLogs} {
			for _, decode := range []func(otlp.Signal, []byte) (otlp.Request, error){otlp.DecodeJSON, otlp.DecodeProto} {
				r, err := decode(sig, data)
				if err != nil {
					continue
				}
				if sig == otlp.SignalTraces {
					tr.AddTraces(r.Traces)
				} else {
					tr.AddLogs(r.Logs)
				}
			}
		}
		recs := append(tr.Flush(), tr.Finish()...)
		for _, r := range recs {
			if r.Thread == "" || r.Event == nil {
				t.Fatalf("record %d: thread %q, event %v", r.Seq, r.Thread, r.Event)
			}
		}
		fold.NewThreads(fold.Options{}).Apply("fuzz", recs...)
		if _, err := otlp.Read(bytes.NewReader(data), otel.Options{}); err != nil {
			t.Fatal(err)
		}
	})
}
