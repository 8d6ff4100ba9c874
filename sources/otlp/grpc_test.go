package otlp_test

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agentwatch/agentwatch/sources/otlp"
)

// rawCodec sends a request's bytes as they are, so that a test can send
// what no exporter would.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }
func (rawCodec) Unmarshal(b []byte, v any) error {
	*v.(*[]byte) = append([]byte(nil), b...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// exportRaw calls the trace service's Export with body as the message,
// sending token as a bearer token when it is set, and returns the call's
// status code.
func exportRaw(t *testing.T, addr, token string, body []byte, opts ...grpc.CallOption) codes.Code {
	t.Helper()
	md := metadata.MD{}
	if token != "" {
		md.Set("authorization", "Bearer "+token)
	}
	return exportRawMD(t, addr, md, body, opts...)
}

// exportRawMD is exportRaw with the call's metadata md.
func exportRawMD(t *testing.T, addr string, md metadata.MD, body []byte, opts ...grpc.CallOption) codes.Code {
	t.Helper()
	return exportRawStatus(t, addr, md, body, opts...).Code()
}

// exportRawStatus is exportRawMD's whole status.
func exportRawStatus(t *testing.T, addr string, md metadata.MD, body []byte, opts ...grpc.CallOption) *status.Status {
	t.Helper()
	opts = append([]grpc.CallOption{grpc.ForceCodec(rawCodec{}), grpc.MaxCallSendMsgSize(64 << 20)}, opts...)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(opts...))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := metadata.NewOutgoingContext(context.Background(), md)
	var out []byte
	err = conn.Invoke(ctx, "/opentelemetry.proto.collector.trace.v1.TraceService/Export", &body, &out)
	return status.Convert(err)
}

// A gRPC call without the token is refused before its message is read:
// a body that would not decode, or one over the size limit, is answered
// UNAUTHENTICATED, not with what reading it would have found.
func TestGRPCTokenBeforeBody(t *testing.T) {
	rcv, stop := start(t, otlp.Options{Token: "s3cret", MaxBody: 1 << 20})
	garbage := bytes.Repeat([]byte{0xff}, 1000)
	huge := bytes.Repeat([]byte{0}, 4<<20)
	for _, c := range []struct {
		name, token string
		body        []byte
		want        codes.Code
	}{
		{"garbage, no token", "", garbage, codes.Unauthenticated},
		{"garbage, wrong token", "wrong", garbage, codes.Unauthenticated},
		{"over the limit, no token", "", huge, codes.Unauthenticated},
		{"garbage, the token", "s3cret", garbage, codes.InvalidArgument},
		{"over the limit, the token", "s3cret", huge, codes.ResourceExhausted},
		{"valid, the token", "s3cret", aTrace(t), codes.OK},
	} {
		if got := exportRaw(t, rcv.GRPCAddr(), c.token, c.body); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := stop(); len(got) != 1 {
		t.Fatalf("%d requests taken, want the valid one", len(got))
	}
	c := rcv.Counts()
	if c.Taken != 1 || c.Refused[otlp.Unauthorized] != 3 || c.Refused[otlp.Malformed] != 1 || c.Refused[otlp.TooLarge] != 1 {
		t.Errorf("counts %+v (%s)", c, c)
	}
}

// Over gRPC too, a message is bounded after gzip is undone: a gzip bomb
// is RESOURCE_EXHAUSTED and counted as too large, and a compressed
// request within the limit is taken.
func TestGRPCGzip(t *testing.T) {
	rcv, stop := start(t, otlp.Options{MaxBody: 1 << 20})
	gzipped := grpc.UseCompressor("gzip")
	if code := exportRaw(t, rcv.GRPCAddr(), "", bytes.Repeat([]byte{0}, 8<<20), gzipped); code != codes.ResourceExhausted {
		t.Errorf("8 MiB of zeros, gzipped: %v, want RESOURCE_EXHAUSTED", code)
	}
	if code := exportRaw(t, rcv.GRPCAddr(), "", aTrace(t), gzipped); code != codes.OK {
		t.Errorf("a trace, gzipped: %v", code)
	}
	if got := stop(); len(got) != 1 {
		t.Fatalf("%d requests taken, want the trace", len(got))
	}
	if c := rcv.Counts(); c.Refused[otlp.TooLarge] != 1 {
		t.Errorf("counts %s", c)
	}
}
