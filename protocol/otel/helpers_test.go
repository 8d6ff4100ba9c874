package otel_test

import (
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// t0 is when the tests' telemetry starts.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func at(ms int) pcommon.Timestamp {
	return pcommon.NewTimestampFromTime(t0.Add(time.Duration(ms) * time.Millisecond))
}

// attrs fills m from key/value pairs (strings, ints, bools, floats).
func attrs(m pcommon.Map, kv ...any) {
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		switch v := kv[i+1].(type) {
		case string:
			m.PutStr(k, v)
		case int:
			m.PutInt(k, int64(v))
		case bool:
			m.PutBool(k, v)
		case float64:
			m.PutDouble(k, v)
		}
	}
}

// spanSpec is a span to make.
type spanSpec struct {
	trace, id, parent string // hex
	name              string
	start, end        int // ms after t0
	err               string
	kv                []any
}

func traceID(h string) pcommon.TraceID {
	var id pcommon.TraceID
	copy(id[:], mustHex(h))
	return id
}

func spanID(h string) pcommon.SpanID {
	var id pcommon.SpanID
	copy(id[:], mustHex(h))
	return id
}

func mustHex(h string) []byte {
	b := make([]byte, len(h)/2)
	for i := range b {
		var v byte
		for _, c := range h[2*i : 2*i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				v |= byte(c-'a') + 10
			}
		}
		b[i] = v
	}
	return b
}

// traces makes one resource's spans.
func traces(resource []any, specs ...spanSpec) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	attrs(rs.Resource().Attributes(), resource...)
	ss := rs.ScopeSpans().AppendEmpty()
	for _, s := range specs {
		sp := ss.Spans().AppendEmpty()
		sp.SetTraceID(traceID(s.trace))
		sp.SetSpanID(spanID(s.id))
		if s.parent != "" {
			sp.SetParentSpanID(spanID(s.parent))
		}
		sp.SetName(s.name)
		sp.SetStartTimestamp(at(s.start))
		sp.SetEndTimestamp(at(s.end))
		if s.err != "" {
			sp.Status().SetCode(ptrace.StatusCodeError)
			sp.Status().SetMessage(s.err)
		}
		attrs(sp.Attributes(), s.kv...)
	}
	return td
}

// logSpec is a log record to make.
type logSpec struct {
	ms   int
	body string
	kv   []any
}

// logs makes one resource's log records.
func logs(resource []any, specs ...logSpec) plog.Logs {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	attrs(rl.Resource().Attributes(), resource...)
	sl := rl.ScopeLogs().AppendEmpty()
	for _, s := range specs {
		lr := sl.LogRecords().AppendEmpty()
		lr.SetTimestamp(at(s.ms))
		lr.Body().SetStr(s.body)
		attrs(lr.Attributes(), s.kv...)
	}
	return ld
}

// foldAll folds records into threads, failing on any protocol problem.
func foldAll(t *testing.T, batches ...[]model.Record) *fold.Threads {
	t.Helper()
	ts := fold.NewThreads(fold.Options{})
	for _, b := range batches {
		ts.Apply("otlp", b...)
	}
	for _, th := range ts.List() {
		for _, d := range th.Fold.Diagnostics() {
			t.Errorf("thread %s: #%d %s: %s [%s]", th.ID, d.Seq, d.Type, d.Message, d.Rule)
		}
	}
	return ts
}

// translate maps what is given as one file is, whole.
func translate(opts otel.Options, tds []ptrace.Traces, lds []plog.Logs) []model.Record {
	tr := otel.New(opts)
	for _, td := range tds {
		tr.AddTraces(td)
	}
	for _, ld := range lds {
		tr.AddLogs(ld)
	}
	return append(tr.Flush(), tr.Finish()...)
}

// items returns the thread's items of a kind.
func items(th *fold.Thread, kind model.ItemKind) []*model.Item {
	var out []*model.Item
	for _, it := range th.Fold.Items() {
		if it.Kind == kind {
			out = append(out, it)
		}
	}
	return out
}
