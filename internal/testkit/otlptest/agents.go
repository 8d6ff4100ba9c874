package otlptest

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/trace"
)

// AgentRun sends a GenAI agent run in conversation conv from t0: an
// invoke_agent span around a model call that asks for a tool, the tool's
// execute_tool span, a second tool that fails, and the final answer. It
// returns the run's trace id and the failing tool span's id, in hex.
func (c *Client) AgentRun(ctx context.Context, conv string, t0 time.Time) (traceID, failedSpan string) {
	tr := c.TP.Tracer("agent-framework")
	at := func(ms int) trace.SpanStartEventOption {
		return trace.WithTimestamp(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	end := func(ms int) trace.SpanEndOption {
		return trace.WithTimestamp(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	ctx, agent := tr.Start(ctx, "invoke_agent support", at(0), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "support"),
		attribute.String("gen_ai.conversation.id", conv)))
	_, chat := tr.Start(ctx, "chat gpt-4o", at(100), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", "gpt-4o"),
		attribute.String("gen_ai.provider.name", "openai"), attribute.String("gen_ai.conversation.id", conv),
		attribute.Int("gen_ai.usage.input_tokens", 120), attribute.Int("gen_ai.usage.output_tokens", 30),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"where is order 4411?"}]}]`),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"Looking it up."}],"finish_reason":"tool_call"}]`)))
	chat.End(end(900))
	_, tool := tr.Start(ctx, "execute_tool lookup_order", at(1000), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "lookup_order"),
		attribute.String("gen_ai.tool.call.id", "call_1"), attribute.String("gen_ai.tool.call.arguments", `{"id":"4411"}`),
		attribute.String("gen_ai.tool.call.result", `{"status":"shipped"}`)))
	tool.End(end(1400))
	_, bad := tr.Start(ctx, "execute_tool refund", at(1500), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", "refund")))
	bad.SetStatus(codes.Error, "not allowed")
	bad.End(end(1600))
	_, final := tr.Start(ctx, "chat gpt-4o", at(1700), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.response.model", "gpt-4o"),
		attribute.String("gen_ai.provider.name", "openai"), attribute.String("gen_ai.conversation.id", conv),
		attribute.Int("gen_ai.usage.input_tokens", 200), attribute.Int("gen_ai.usage.output_tokens", 20),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"It has shipped."}],"finish_reason":"stop"}]`)))
	final.End(end(2000))
	agent.End(end(2100))
	return agent.SpanContext().TraceID().String(), bad.SpanContext().SpanID().String()
}

// event emits one log record shaped as an agent's event.
func event(ctx context.Context, l otellog.Logger, at time.Time, body, name string, kv ...string) {
	var r otellog.Record
	r.SetTimestamp(at)
	r.SetBody(attribute.StringValue(body))
	attrs := []attribute.KeyValue{attribute.String("event.name", name)}
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, attribute.String(kv[i], kv[i+1]))
	}
	r.AddAttributes(attrs...)
	l.Emit(ctx, r)
}

// ClaudeCode sends one prompt of a Claude Code session from t0 as Claude
// Code does (numbers as text, the bare event name in event.name): the
// prompt, a model call, an accepted Bash command and a refused Edit.
func (c *Client) ClaudeCode(ctx context.Context, session string, t0 time.Time) {
	l := c.LP.Logger("com.anthropic.claude_code.events")
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	common := []string{"session.id", session, "prompt.id", "prompt-" + session}
	ev := func(n int, name string, kv ...string) {
		event(ctx, l, ms(n), "claude_code."+name, name, append(append([]string{}, common...), kv...)...)
	}
	ev(0, "user_prompt", "prompt", "make the tests pass", "prompt_length", "19")
	ev(400, "api_request", "model", "claude-sonnet-4-5", "input_tokens", "1500", "output_tokens", "60", "cost_usd", "0.006", "duration_ms", "380")
	ev(500, "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config", "tool_use_id", "toolu_1")
	ev(1500, "tool_result", "tool_name", "Bash", "success", "true", "duration_ms", "900", "tool_use_id", "toolu_1",
		"tool_parameters", `{"bash_command":"go","full_command":"go test ./..."}`)
	ev(1600, "tool_decision", "tool_name", "Edit", "decision", "reject", "source", "user_reject", "tool_use_id", "toolu_2")
}

// Codex sends a Codex turn from t0 as Codex does: the prompt, an approved
// shell command and its result, and the completed response's usage.
func (c *Client) Codex(ctx context.Context, conv string, t0 time.Time) {
	l := c.LP.Logger("codex_otel")
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	ev := func(n int, name string, kv ...string) {
		event(ctx, l, ms(n), "", "codex."+name, append([]string{"conversation.id", conv, "model", "gpt-5-codex"}, kv...)...)
	}
	ev(0, "user_prompt", "prompt", "fix the build", "prompt_length", "13")
	ev(100, "tool_decision", "tool_name", "shell", "call_id", "c1", "decision", "approved", "source", "config")
	ev(400, "tool_result", "tool_name", "shell", "call_id", "c1", "arguments", `{"command":["bash","-lc","go build ./..."]}`,
		"output", "ok", "success", "true", "duration_ms", "250")
	ev(500, "sse_event", "event.kind", "response.completed", "input_token_count", "900", "output_token_count", "40")
}

// ClaudeEvent sends one Claude Code event of session at time at, as
// Claude Code does (the full name in the body, the bare one in
// event.name), with the session's prompt id and the attributes kv.
func (c *Client) ClaudeEvent(ctx context.Context, at time.Time, name, session string, kv ...string) {
	l := c.LP.Logger("com.anthropic.claude_code.events")
	event(ctx, l, at, "claude_code."+name, name, append([]string{"session.id", session, "prompt.id", "prompt-" + session}, kv...)...)
}
