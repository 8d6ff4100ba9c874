// Package otlptest drives agentwatch's OTLP receiver in tests with real
// OpenTelemetry exporters (the OpenTelemetry Go SDK over OTLP/HTTP and
// OTLP/gRPC), sending what agents send: a GenAI agent run as spans, and
// Claude Code's and Codex's events as log records.
package otlptest

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Client is a process's telemetry: a tracer and a logger provider whose
// exporters send to one receiver.
type Client struct {
	TP *sdktrace.TracerProvider
	LP *sdklog.LoggerProvider
}

// Transport is how a Client exports.
type Transport int

// The OTLP transports.
const (
	HTTP Transport = iota
	GRPC
)

// New makes a client of service on host that exports to addr over tr,
// sending token as a bearer token when it is set. Exports are batched, as
// agents batch them; Flush sends what is queued.
func New(ctx context.Context, tr Transport, addr, token, service, host string) (*Client, error) {
	headers := map[string]string{}
	if token != "" {
		headers["Authorization"] = "Bearer " + token
	}
	res := resource.NewSchemaless(attribute.String("service.name", service), attribute.String("host.name", host))
	var (
		te  sdktrace.SpanExporter
		le  sdklog.Exporter
		err error
	)
	switch tr {
	case HTTP:
		te, err = otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(addr), otlptracehttp.WithInsecure(),
			otlptracehttp.WithHeaders(headers), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
		if err == nil {
			le, err = otlploghttp.New(ctx, otlploghttp.WithEndpoint(addr), otlploghttp.WithInsecure(),
				otlploghttp.WithHeaders(headers), otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false}))
		}
	case GRPC:
		te, err = otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(addr), otlptracegrpc.WithInsecure(),
			otlptracegrpc.WithHeaders(headers), otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false}))
		if err == nil {
			le, err = otlploggrpc.New(ctx, otlploggrpc.WithEndpoint(addr), otlploggrpc.WithInsecure(),
				otlploggrpc.WithHeaders(headers), otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: false}))
		}
	default:
		err = errors.New("no such transport")
	}
	if err != nil {
		return nil, err
	}
	return &Client{
		TP: sdktrace.NewTracerProvider(sdktrace.WithBatcher(te), sdktrace.WithResource(res)),
		LP: sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewBatchProcessor(le)), sdklog.WithResource(res)),
	}, nil
}

// Flush exports everything queued and returns the first export's error.
func (c *Client) Flush(ctx context.Context) error {
	return errors.Join(c.TP.ForceFlush(ctx), c.LP.ForceFlush(ctx))
}

// Shutdown flushes and stops the exporters.
func (c *Client) Shutdown(ctx context.Context) error {
	return errors.Join(c.TP.Shutdown(ctx), c.LP.Shutdown(ctx))
}
