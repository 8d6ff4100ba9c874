package otlp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Signal is what an export request carries.
type Signal int

// The signals of OTLP. agentwatch shows traces and logs; metrics are
// accepted and left aside.
const (
	SignalTraces Signal = iota + 1
	SignalLogs
	SignalMetrics
)

// String names the signal as OTLP's paths do.
func (s Signal) String() string {
	switch s {
	case SignalTraces:
		return "traces"
	case SignalLogs:
		return "logs"
	case SignalMetrics:
		return "metrics"
	}
	return fmt.Sprintf("Signal(%d)", int(s))
}

// Request is one decoded export request.
type Request struct {
	Signal  Signal
	Traces  ptrace.Traces
	Logs    plog.Logs
	Metrics pmetric.Metrics
}

// Items counts what the request holds: spans, log records or data points.
func (r Request) Items() int {
	switch r.Signal {
	case SignalTraces:
		return r.Traces.SpanCount()
	case SignalLogs:
		return r.Logs.LogRecordCount()
	case SignalMetrics:
		return r.Metrics.DataPointCount()
	}
	return 0
}

// DecodeJSON decodes an OTLP/JSON export request of sig. OTLP JSON is not
// protobuf's JSON (ids are hex, not base64): the Collector's own
// unmarshalers read it. A request nested deeper than agui.MaxDepth is
// refused unread (agui.ErrTooDeep): the unmarshalers' work grows with
// the depth, and one 15 MB request 550,000 levels deep once cost 886 MB.
// (OTLP/protobuf has a limit of its own: pdata stops at protobuf's
// recursion limit.)
func DecodeJSON(sig Signal, b []byte) (Request, error) {
	if len(b) > agui.MaxDepth { // nesting deeper takes more bytes than that
		if d := agui.Depth(b); d > agui.MaxDepth {
			return Request{}, fmt.Errorf("not an OTLP/JSON %s export request that agentwatch reads: %w: its JSON is %d levels deep, and agentwatch reads at most %d",
				sig, agui.ErrTooDeep, d, agui.MaxDepth)
		}
	}
	r := Request{Signal: sig}
	var err error
	switch sig {
	case SignalTraces:
		u := ptrace.JSONUnmarshaler{}
		r.Traces, err = u.UnmarshalTraces(b)
	case SignalLogs:
		u := plog.JSONUnmarshaler{}
		r.Logs, err = u.UnmarshalLogs(b)
	case SignalMetrics:
		u := pmetric.JSONUnmarshaler{}
		r.Metrics, err = u.UnmarshalMetrics(b)
	default:
		err = fmt.Errorf("no such signal")
	}
	if err != nil {
		return Request{}, fmt.Errorf("not an OTLP/JSON %s export request: %s", sig, shortErr(err))
	}
	return r, nil
}

// shortErr is a decoder's error without the input it quotes (which may be
// long, and is the sender's).
func shortErr(err error) string {
	s := err.Error()
	if i := strings.Index(s, ", error found in"); i >= 0 {
		s = s[:i]
	}
	return s
}

// DecodeProto decodes an OTLP/protobuf export request of sig.
func DecodeProto(sig Signal, b []byte) (Request, error) {
	r := Request{Signal: sig}
	var err error
	switch sig {
	case SignalTraces:
		req := ptraceotlp.NewExportRequest()
		err = req.UnmarshalProto(b)
		r.Traces = req.Traces()
	case SignalLogs:
		req := plogotlp.NewExportRequest()
		err = req.UnmarshalProto(b)
		r.Logs = req.Logs()
	case SignalMetrics:
		req := pmetricotlp.NewExportRequest()
		err = req.UnmarshalProto(b)
		r.Metrics = req.Metrics()
	default:
		err = fmt.Errorf("no such signal")
	}
	if err != nil {
		return Request{}, fmt.Errorf("not an OTLP/protobuf %s export request: %w", sig, err)
	}
	return r, nil
}

// MarshalJSON encodes the request as OTLP/JSON, on one line.
func (r Request) MarshalJSON() ([]byte, error) {
	switch r.Signal {
	case SignalTraces:
		m := ptrace.JSONMarshaler{}
		return m.MarshalTraces(r.Traces)
	case SignalLogs:
		m := plog.JSONMarshaler{}
		return m.MarshalLogs(r.Logs)
	case SignalMetrics:
		m := pmetric.JSONMarshaler{}
		return m.MarshalMetrics(r.Metrics)
	}
	return nil, fmt.Errorf("no such signal")
}

// SniffJSON tells an OTLP/JSON export request by its first member:
// resourceSpans, resourceLogs or resourceMetrics (the head of a file is
// enough).
func SniffJSON(head []byte) (Signal, bool) {
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	d := jsontext.NewDecoder(bytes.NewReader(head))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0, false
	}
	tok, err := d.ReadToken()
	if err != nil || tok.Kind() != '"' {
		return 0, false
	}
	switch tok.String() {
	case "resourceSpans", "resource_spans":
		return SignalTraces, true
	case "resourceLogs", "resource_logs":
		return SignalLogs, true
	case "resourceMetrics", "resource_metrics":
		return SignalMetrics, true
	}
	return 0, false
}

// jsonValid reports whether b is one whole JSON value.
func jsonValid(b []byte) bool {
	return len(b) > 0 && jsontext.Value(b).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}
