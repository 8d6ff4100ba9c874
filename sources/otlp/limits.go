package otlp

import (
	"fmt"
	"net/http"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"google.golang.org/grpc/codes"
)

// The limits a Receiver keeps unless told otherwise. An exporter's batch
// is far below each (the OpenTelemetry SDKs send at most 512 spans or log
// records a request and keep 128 attributes a span); each is a bound on
// what one stranger with the token makes the receiver hold.
const (
	// DefaultMaxInFlight is how many requests are read, decoded or wait
	// for the reader at once, over both transports: each may hold a body
	// of MaxBody and what it decodes to.
	DefaultMaxInFlight = 4
	// DefaultMaxWaiting is how many requests wait for a place in flight.
	DefaultMaxWaiting = 64
	// DefaultMaxItems is how many spans or log records one request holds.
	DefaultMaxItems = 1 << 16
	// DefaultMaxAttributes is how many attributes a resource, span, span
	// event, link or log record has.
	DefaultMaxAttributes = 1024
)

// refusal is a request turned away: why (counted), and how each transport
// says so.
type refusal struct {
	why  Reason
	http int
	code codes.Code
	msg  string
}

func (f *refusal) Error() string { return f.msg }

func refuse(why Reason, httpStatus int, code codes.Code, format string, args ...any) *refusal {
	return &refusal{why: why, http: httpStatus, code: code, msg: fmt.Sprintf(format, args...)}
}

// tooMany refuses a request over a count limit.
func tooMany(format string, args ...any) *refusal {
	return refuse(TooMany, http.StatusRequestEntityTooLarge, codes.ResourceExhausted, format, args...)
}

// checkCounts refuses a request with more spans or log records, or more
// attributes on one of them, than the receiver takes.
func (r *Receiver) checkCounts(req Request) *refusal {
	maxItems, maxAttrs := r.opts.MaxItems, r.opts.MaxAttributes
	if n := req.Items(); n > maxItems && req.Signal != SignalMetrics {
		return tooMany("%d %s in one request: agentwatch takes at most %d; send smaller batches", n, itemsOf(req.Signal), maxItems)
	}
	over := func(what string, m pcommon.Map) *refusal {
		if n := m.Len(); n > maxAttrs {
			return tooMany("a %s with %d attributes: agentwatch takes at most %d", what, n, maxAttrs)
		}
		return nil
	}
	switch req.Signal {
	case SignalTraces:
		return spansOver(req.Traces, over)
	case SignalLogs:
		return logsOver(req.Logs, over)
	}
	return nil
}

func itemsOf(sig Signal) string {
	if sig == SignalLogs {
		return "log records"
	}
	return "spans"
}

func spansOver(td ptrace.Traces, over func(string, pcommon.Map) *refusal) *refusal {
	for _, rs := range td.ResourceSpans().All() {
		if f := over("resource", rs.Resource().Attributes()); f != nil {
			return f
		}
		for _, ss := range rs.ScopeSpans().All() {
			for _, sp := range ss.Spans().All() {
				if f := over("span", sp.Attributes()); f != nil {
					return f
				}
				for _, ev := range sp.Events().All() {
					if f := over("span event", ev.Attributes()); f != nil {
						return f
					}
				}
				for _, l := range sp.Links().All() {
					if f := over("span link", l.Attributes()); f != nil {
						return f
					}
				}
			}
		}
	}
	return nil
}

func logsOver(ld plog.Logs, over func(string, pcommon.Map) *refusal) *refusal {
	for _, rl := range ld.ResourceLogs().All() {
		if f := over("resource", rl.Resource().Attributes()); f != nil {
			return f
		}
		for _, sl := range rl.ScopeLogs().All() {
			for _, lr := range sl.LogRecords().All() {
				if f := over("log record", lr.Attributes()); f != nil {
					return f
				}
			}
		}
	}
	return nil
}
