// Package otlp reads OpenTelemetry's wire format, OTLP: export requests in
// JSON or protobuf, decoded with the OpenTelemetry Collector's own data
// model (pdata), from files (one request per file or per line, as the
// Collector's file exporter writes them) and from the network, as an OTLP
// receiver over HTTP and gRPC. What the requests say about agents becomes
// records through protocol/otel; docs/OTEL.md says how.
package otlp
