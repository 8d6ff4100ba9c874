package otlp_test

import (
	"bytes"
	"os"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// decodeFuzzLightBytes bounds what FuzzDecodeLight reads of an input: a
// small request decodes and maps in microseconds, so the fuzzer spends
// its time on new inputs, not on one big request (or on minimising one).
const decodeFuzzLightBytes = 4 << 10

// FuzzDecodeLight is FuzzDecode's light twin, the one CI fuzzes
// (scripts/fuzz-all.sh): the input's first byte says which decoder and
// which signal it is for (JSON or protobuf, traces or logs), and what
// decodes is mapped and folded, as the receiver would. Nothing may panic;
// every record the mapping makes names its thread. FuzzDecode tries every
// decoder on every input and reads it as a file too; run it by hand:
//
//	go test ./sources/otlp/ -run '^$' -fuzz '^FuzzDecode$' -fuzztime 5m
func FuzzDecodeLight(f *testing.F) {
	b, err := os.ReadFile(fleet)
	if err != nil {
		f.Fatal(err)
	}
	for line := range bytes.SplitSeq(bytes.TrimSpace(b), []byte("\n")) {
		for sel := range byte(2) { // JSON, traces then logs
			f.Add(append([]byte{sel}, line...))
		}
		// The same requests in protobuf.
		traces := ptraceotlp.NewExportRequest()
		if traces.UnmarshalJSON(line) == nil {
			if pb, err := traces.MarshalProto(); err == nil && traces.Traces().SpanCount() > 0 {
				f.Add(append([]byte{2}, pb...))
			}
		}
		logs := plogotlp.NewExportRequest()
		if logs.UnmarshalJSON(line) == nil {
			if pb, err := logs.MarshalProto(); err == nil && logs.Logs().LogRecordCount() > 0 {
				f.Add(append([]byte{3}, pb...))
			}
		}
	}
	f.Add([]byte("\x00" + `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EEE19B7EC3C1B174","parentSpanId":"EEE19B7EC3C1B174","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}]}]}]}]}`))
	f.Add([]byte("\x01" + `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"attributes":[{"key":"event.name","value":{"stringValue":"codex.tool_result"}},{"key":"duration_ms","value":{"stringValue":"-1e308"}}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		sel, body := data[0], data[1:min(len(data), decodeFuzzLightBytes)]
		sig, decode := otlp.SignalTraces, otlp.DecodeJSON
		if sel&1 == 1 {
			sig = otlp.SignalLogs
		}
		if sel&2 == 2 {
			decode = otlp.DecodeProto
		}
		r, err := decode(sig, body)
		if err != nil {
			return
		}
		tr := otel.New(otel.Options{})
		if sig == otlp.SignalTraces {
			tr.AddTraces(r.Traces)
		} else {
			tr.AddLogs(r.Logs)
		}
		recs := append(tr.Flush(), tr.Finish()...)
		for _, rec := range recs {
			if rec.Thread == "" || rec.Event == nil {
				t.Fatalf("record %d: thread %q, event %v", rec.Seq, rec.Thread, rec.Event)
			}
		}
		fold.NewThreads(fold.Options{}).Apply("fuzz", recs...)
	})
}
