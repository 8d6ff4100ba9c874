package otlp

import (
	"context"
	"io"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"go.opentelemetry.io/collector/pdata/pmetric/pmetricotlp"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // exporters may compress
	"google.golang.org/grpc/grpclog"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
)

// gRPC's own log writes errors to standard error by default, which would
// be behind the screen; it is set once, before any gRPC code runs, as its
// documentation asks.
func init() { grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, io.Discard, io.Discard)) }

// grpcServer serves OTLP/gRPC with the Collector's pdata registrations.
func (r *Receiver) grpcServer() *grpc.Server {
	s := grpc.NewServer(grpc.MaxRecvMsgSize(int(r.opts.MaxBody)), grpc.InTapHandle(r.grpcAuth))
	ptraceotlp.RegisterGRPCServer(s, &grpcTraces{r: r})
	plogotlp.RegisterGRPCServer(s, &grpcLogs{r: r})
	pmetricotlp.RegisterGRPCServer(s, &grpcMetrics{})
	return s
}

// grpcAuth refuses a call without the token (UNAUTHENTICATED). It runs
// as the call's headers arrive, before the stream exists: a stranger's
// message is never read, let alone decoded. (An interceptor would come
// too late: gRPC reads and decodes a unary call's message before it runs
// any.)
func (r *Receiver) grpcAuth(ctx context.Context, info *tap.Info) (context.Context, error) {
	header := ""
	if v := info.Header.Get("authorization"); len(v) > 0 {
		header = v[0]
	}
	if !r.authorized(header) {
		return ctx, status.Error(codes.Unauthenticated, "a valid bearer token is required (authorization: Bearer TOKEN)")
	}
	return ctx, nil
}

// grpcTraces takes trace exports.
type grpcTraces struct {
	ptraceotlp.UnimplementedGRPCServer
	r *Receiver
}

// Export hands the spans to the reader.
func (g *grpcTraces) Export(ctx context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	// A copy: the request is the server's, and the reader keeps it.
	td := ptrace.NewTraces()
	req.Traces().CopyTo(td)
	if err := g.r.deliver(ctx, Request{Signal: SignalTraces, Traces: td}, "grpc"); err != nil {
		return ptraceotlp.NewExportResponse(), status.Error(codes.Unavailable, err.Error())
	}
	return ptraceotlp.NewExportResponse(), nil
}

// grpcLogs takes log exports.
type grpcLogs struct {
	plogotlp.UnimplementedGRPCServer
	r *Receiver
}

// Export hands the log records to the reader.
func (g *grpcLogs) Export(ctx context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	ld := plog.NewLogs()
	req.Logs().CopyTo(ld)
	if err := g.r.deliver(ctx, Request{Signal: SignalLogs, Logs: ld}, "grpc"); err != nil {
		return plogotlp.NewExportResponse(), status.Error(codes.Unavailable, err.Error())
	}
	return plogotlp.NewExportResponse(), nil
}

// grpcMetrics takes metric exports and keeps none (a partial success).
type grpcMetrics struct {
	pmetricotlp.UnimplementedGRPCServer
}

// Export rejects the data points, saying why.
func (g *grpcMetrics) Export(_ context.Context, req pmetricotlp.ExportRequest) (pmetricotlp.ExportResponse, error) {
	return metricsRejected(req.Metrics().DataPointCount()), nil
}
