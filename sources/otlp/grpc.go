package otlp

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // exporters may compress
	"google.golang.org/grpc/grpclog"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/types/known/durationpb"
)

// gRPC's own log writes errors to standard error by default, which would
// be behind the screen; it is set once, before any gRPC code runs, as its
// documentation asks.
func init() { grpclog.SetLoggerV2(grpclog.NewLoggerV2(io.Discard, io.Discard, io.Discard)) }

// The OTLP/gRPC services, by the signal each takes.
var grpcServices = []struct {
	name string
	sig  Signal
}{
	{"opentelemetry.proto.collector.trace.v1.TraceService", SignalTraces},
	{"opentelemetry.proto.collector.logs.v1.LogsService", SignalLogs},
	{"opentelemetry.proto.collector.metrics.v1.MetricsService", SignalMetrics},
}

// grpcWindow is the flow-control window of a call and of a connection:
// what a client may send that the receiver has not asked for yet. Fixed,
// it turns off gRPC's window that grows with the link (up to 16 MiB a
// call), so a call waiting for its place in flight holds at most this.
const grpcWindow = 1 << 20

// grpcServer serves OTLP/gRPC. Each service's Export is a handler that
// reads its message itself, once it has a place in flight, so what a
// call can make the receiver hold is bounded as over HTTP; the message
// is then decoded, checked and answered as OTLP/HTTP's body is. The
// token is checked as the call's headers arrive (grpcAuth).
func (r *Receiver) grpcServer() *grpc.Server {
	s := grpc.NewServer(grpc.MaxRecvMsgSize(int(r.opts.MaxBody)), grpc.InTapHandle(r.grpcAuth),
		grpc.ForceServerCodecV2(rawCodec{}), grpc.InitialWindowSize(grpcWindow), grpc.InitialConnWindowSize(grpcWindow),
		grpc.MaxHeaderListSize(maxHeader))
	for _, svc := range grpcServices {
		s.RegisterService(&grpc.ServiceDesc{
			ServiceName: svc.name,
			HandlerType: (*any)(nil),
			Streams:     []grpc.StreamDesc{{StreamName: "Export", Handler: r.grpcExport(svc.sig)}},
		}, r)
	}
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
		r.counts.refused[Unauthorized].Add(1)
		return ctx, status.Error(codes.Unauthenticated, "a valid bearer token is required (authorization: Bearer TOKEN)")
	}
	return ctx, nil
}

// grpcExport is the Export call of sig's service.
func (r *Receiver) grpcExport(sig Signal) grpc.StreamHandler {
	return func(_ any, stream grpc.ServerStream) error {
		ctx := stream.Context()
		release, ok := r.admit(ctx)
		if !ok {
			return r.refuseGRPC(r.busy())
		}
		defer release()
		var msg rawMessage
		if err := stream.RecvMsg(&msg); err != nil {
			return r.refuseGRPC(recvRefusal(err))
		}
		out, f := r.take(ctx, sig, false, msg, "grpc")
		if f != nil {
			return r.refuseGRPC(f)
		}
		return stream.SendMsg(rawMessage(out))
	}
}

// recvRefusal is what reading a call's message failed with: over the
// size limit (gRPC's own RESOURCE_EXHAUSTED, before or after gzip), or a
// call without a message.
func recvRefusal(err error) *refusal {
	st, _ := status.FromError(err)
	switch {
	case st.Code() == codes.ResourceExhausted:
		return &refusal{why: TooLarge, code: codes.ResourceExhausted, msg: st.Message()}
	case errors.Is(err, io.EOF):
		return &refusal{why: Malformed, code: codes.InvalidArgument, msg: "the call sent no export request"}
	}
	return &refusal{why: Malformed, code: st.Code(), msg: st.Message()}
}

// refuseGRPC counts a call turned away and is its status. A busy
// receiver's RESOURCE_EXHAUSTED carries a RetryInfo: without one, OTLP's
// exporters take the code as final and drop the data.
func (r *Receiver) refuseGRPC(f *refusal) error {
	r.counts.refused[f.why].Add(1)
	st := status.New(f.code, f.msg)
	if f.why == Busy {
		if withRetry, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Second)}); err == nil {
			st = withRetry
		}
	}
	return st.Err()
}

// rawMessage is a message's bytes, as they came or as they go: the
// receiver decodes and encodes OTLP itself (decode.go).
type rawMessage []byte

// rawCodec passes rawMessages through gRPC as they are.
type rawCodec struct{}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(rawMessage)
	if !ok {
		return nil, status.Errorf(codes.Internal, "agentwatch sends no %T", v)
	}
	return mem.BufferSlice{mem.SliceBuffer(m)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(*rawMessage)
	if !ok {
		return status.Errorf(codes.Internal, "agentwatch reads no %T", v)
	}
	*m = data.Materialize()
	return nil
}

func (rawCodec) Name() string { return "proto" }
