// Package otel turns OpenTelemetry data about agents into AG-UI events, so
// that every view, fold, replay and check of agentwatch works on it as it
// is: spans that follow the OpenTelemetry GenAI conventions or
// OpenInference's, and the log events of Claude Code and Codex.
//
// It is pure, like the fold: a Translator takes decoded OTLP data (the
// OpenTelemetry Collector's pdata model, which sources/otlp reads off files
// and the wire) and returns records, each naming its thread
// (model.Record.Thread): a thread per conversation or session, per service
// and host. docs/OTEL.md is the mapping, attribute by attribute.
package otel
