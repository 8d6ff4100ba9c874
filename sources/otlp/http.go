package otlp

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The content types of OTLP/HTTP.
const (
	typeProto = "application/x-protobuf"
	typeJSON  = "application/json"
)

// paths maps OTLP/HTTP's paths to their signals.
var paths = map[string]Signal{"/v1/traces": SignalTraces, "/v1/logs": SignalLogs, "/v1/metrics": SignalMetrics}

// httpHandler serves OTLP/HTTP.
func (r *Receiver) httpHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.serveHTTP(w, req)
	})
}

func (r *Receiver) serveHTTP(w http.ResponseWriter, req *http.Request) {
	ctype := contentType(req.Header.Get("Content-Type"))
	replyAs := ctype
	if replyAs != typeJSON {
		replyAs = typeProto
	}
	sig, ok := paths[req.URL.Path]
	if !ok {
		r.refuseHTTP(w, replyAs, refuse(Malformed, http.StatusNotFound, codes.NotFound, "no such path: OTLP/HTTP is POST /v1/traces, /v1/logs or /v1/metrics"))
		return
	}
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		r.refuseHTTP(w, replyAs, refuse(Malformed, http.StatusMethodNotAllowed, codes.Unimplemented, "OTLP/HTTP takes POST only"))
		return
	}
	if !r.authorized(req.Header.Get("Authorization")) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		r.refuseHTTP(w, replyAs, refuse(Unauthorized, http.StatusUnauthorized, codes.Unauthenticated, "a valid bearer token is required (Authorization: Bearer TOKEN)"))
		return
	}
	if ctype != typeProto && ctype != typeJSON {
		r.refuseHTTP(w, typeProto, refuse(Malformed, http.StatusUnsupportedMediaType, codes.InvalidArgument,
			"content type %q: OTLP/HTTP is application/x-protobuf or application/json", ctype))
		return
	}
	release, ok := r.admit(req.Context())
	if !ok {
		w.Header().Set("Retry-After", "1")
		r.refuseHTTP(w, replyAs, r.busy())
		return
	}
	defer release()
	body, status, err := r.readBody(w, req)
	if err != nil {
		why := Malformed
		if status == http.StatusRequestEntityTooLarge {
			why = TooLarge
		}
		r.refuseHTTP(w, replyAs, refuse(why, status, codes.InvalidArgument, "%s", err))
		return
	}
	via := "http/protobuf"
	if ctype == typeJSON {
		via = "http/json"
	}
	out, f := r.take(req.Context(), sig, ctype == typeJSON, body, via)
	if f != nil {
		if f.why == NotKept {
			w.Header().Set("Retry-After", "1")
		}
		r.refuseHTTP(w, replyAs, f)
		return
	}
	w.Header().Set("Content-Type", replyAs)
	w.WriteHeader(http.StatusOK)
	w.Write(out)
}

// refuseHTTP answers a request turned away and counts it.
func (r *Receiver) refuseHTTP(w http.ResponseWriter, ctype string, f *refusal) {
	r.counts.refused[f.why].Add(1)
	httpError(w, ctype, f.http, f.code, f.msg)
}

// contentType is a Content-Type header's media type, lower case.
func contentType(h string) string {
	t, _, err := mime.ParseMediaType(h)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(h))
	}
	if t == "application/protobuf" {
		return typeProto
	}
	return t
}

// readBody reads a request's body, undoing gzip, within the size limit:
// 413 past it (compressed or not), 415 for an encoding other than gzip,
// 400 for a body that is cut off or not gzip.
func (r *Receiver) readBody(w http.ResponseWriter, req *http.Request) ([]byte, int, error) {
	limit := r.opts.MaxBody
	if req.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body (%d bytes) is over the limit of %d bytes", req.ContentLength, limit)
	}
	in := io.Reader(http.MaxBytesReader(w, req.Body, limit))
	switch enc := strings.ToLower(strings.TrimSpace(req.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, tooLargeOr(err, http.StatusBadRequest), fmt.Errorf("the body is not gzip: %w", err)
		}
		defer zr.Close()
		in = zr
	default:
		return nil, http.StatusUnsupportedMediaType, fmt.Errorf("content encoding %q: agentwatch reads gzip or none", enc)
	}
	body, err := io.ReadAll(io.LimitReader(in, limit+1))
	if status := tooLargeOr(err, http.StatusBadRequest); status == http.StatusRequestEntityTooLarge {
		return nil, status, fmt.Errorf("the body is over the limit of %d bytes", limit)
	}
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("read the body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over the limit of %d bytes once unzipped", limit)
	}
	return body, 0, nil
}

// tooLargeOr is 413 for an error of MaxBytesReader, else status.
func tooLargeOr(err error, status int) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge
	}
	return status
}

// response is the export response to a request: success; a partial
// success that rejects what the reader left out, saying why; for
// metrics, a partial success that rejects every data point.
func response(req Request, asJSON bool, v verdict) ([]byte, error) {
	switch req.Signal {
	case SignalTraces:
		resp := ptraceotlp.NewExportResponse()
		if v.leftOut > 0 {
			resp.PartialSuccess().SetRejectedSpans(int64(v.leftOut))
			resp.PartialSuccess().SetErrorMessage(v.why)
		}
		if asJSON {
			return resp.MarshalJSON()
		}
		return resp.MarshalProto()
	case SignalLogs:
		resp := plogotlp.NewExportResponse()
		if v.leftOut > 0 {
			resp.PartialSuccess().SetRejectedLogRecords(int64(v.leftOut))
			resp.PartialSuccess().SetErrorMessage(v.why)
		}
		if asJSON {
			return resp.MarshalJSON()
		}
		return resp.MarshalProto()
	}
	resp := metricsRejected(req.Items())
	if asJSON {
		return resp.MarshalJSON()
	}
	return resp.MarshalProto()
}

// metricsRejected is the partial success for n metric data points.
func metricsRejected(n int) pmetricotlp.ExportResponse {
	resp := pmetricotlp.NewExportResponse()
	if n > 0 {
		resp.PartialSuccess().SetRejectedDataPoints(int64(n))
		resp.PartialSuccess().SetErrorMessage("agentwatch shows traces and logs; metrics are not kept")
	}
	return resp
}

// httpError answers with status and a google.rpc.Status body, as OTLP/HTTP
// asks, in the request's encoding.
func httpError(w http.ResponseWriter, ctype string, status int, code codes.Code, msg string) {
	st := &spb.Status{Code: int32(code), Message: msg}
	var body []byte
	if ctype == typeJSON {
		body, _ = protojson.Marshal(st)
	} else {
		body, _ = proto.Marshal(st)
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}
