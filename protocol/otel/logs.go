package otel

import (
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
)

// The log events read, by the name the agent gives them.
const (
	ccUserPrompt   = "claude_code.user_prompt"
	ccToolDecision = "claude_code.tool_decision"
	ccToolResult   = "claude_code.tool_result"
	ccAPIRequest   = "claude_code.api_request"
	ccAPIError     = "claude_code.api_error"
	cxUserPrompt   = "codex.user_prompt"
	cxToolDecision = "codex.tool_decision"
	cxToolResult   = "codex.tool_result"
	cxAPIRequest   = "codex.api_request"
	cxSSEEvent     = "codex.sse_event"
)

// logObservations reads every log record of ld that the mapping knows.
func (t *Translator) logObservations(ld plog.Logs, out []observation) []observation {
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		res := rl.Resource().Attributes()
		sls := rl.ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			for k := 0; k < lrs.Len(); k++ {
				if o, ok := t.logObservation(res, lrs.At(k)); ok {
					out = append(out, o)
				}
			}
		}
	}
	return out
}

// eventName is the record's event name: the OTLP event name, the
// event.name attribute or the body, whichever names a known agent's
// event. Claude Code puts its bare name ("tool_result") in event.name
// and the full one in the body.
func eventName(res pcommon.Map, lr plog.LogRecord) string {
	cands := []string{lr.EventName(), str(lr.Attributes(), "event.name")}
	if lr.Body().Type() == pcommon.ValueTypeStr {
		cands = append(cands, lr.Body().Str())
	}
	for _, c := range cands {
		if strings.HasPrefix(c, "claude_code.") || strings.HasPrefix(c, "codex.") || strings.HasPrefix(c, "gen_ai.") {
			return c
		}
	}
	service := strings.ToLower(str(res, "service.name"))
	for _, c := range cands {
		if c == "" || strings.Contains(c, ".") {
			continue
		}
		switch {
		case strings.Contains(service, "claude"):
			return "claude_code." + c
		case strings.Contains(service, "codex"):
			return "codex." + c
		}
	}
	return ""
}

// logTime is when the event happened: the record's time, else its
// event.timestamp attribute, else when it was observed.
func logTime(lr plog.LogRecord) time.Time {
	if ts := lr.Timestamp(); ts != 0 {
		return ts.AsTime()
	}
	if s := str(lr.Attributes(), "event.timestamp"); s != "" {
		if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return at
		}
	}
	if ts := lr.ObservedTimestamp(); ts != 0 {
		return ts.AsTime()
	}
	return time.Time{}
}

// logObservation maps one log record; ok is false for one the mapping
// does not read.
func (t *Translator) logObservation(res pcommon.Map, lr plog.LogRecord) (observation, bool) {
	name := eventName(res, lr)
	a := lr.Attributes()
	o := observation{order: t.nextOrder(), trace: hexTrace(lr.TraceID()), span: hexSpan(lr.SpanID()), fromLog: true}
	o.instant(logTime(lr))
	o.place = t.logPlace(res, a, o.trace)
	switch name {
	case ccUserPrompt, cxUserPrompt:
		o.kind = kindPrompt
		o.text = str(a, "prompt")
		o.promptLen, _ = count(a, "prompt_length")
	case ccToolDecision, cxToolDecision:
		o.kind = kindDecision
		o.name = str(a, "tool_name")
		o.callID = str(a, "tool_use_id", "call_id", "gen_ai.tool.call.id")
		o.named = o.callID != ""
		o.decision = decisionWord(str(a, "decision", "decision_type"))
		o.source = str(a, "source", "decision_source")
		o.args = str(a, "tool_input", "tool_parameters", "arguments")
		o.hasArgs = o.args != ""
		o.builtin = true
	case ccToolResult, cxToolResult:
		o.kind = kindTool
		o.name = str(a, "tool_name")
		o.callID = str(a, "tool_use_id", "call_id", "gen_ai.tool.call.id")
		o.named = o.callID != ""
		o.args = str(a, "tool_input", "tool_parameters", "arguments")
		o.hasArgs = o.args != ""
		o.result = str(a, "tool_output", "output", "tool_result")
		o.hasResult = o.result != ""
		if ok, known := flag(a, "success"); known && !ok {
			o.failed = true
		}
		o.errText = str(a, "error", "error_type", "error.message")
		if o.errText != "" {
			o.failed = true
		}
		if d := decisionWord(str(a, "decision", "decision_type")); d == "reject" {
			o.decision, o.source = d, str(a, "source", "decision_source")
		}
		if ms, ok := num(a, "duration_ms"); ok && ms > 0 {
			o.start = o.end.Add(-time.Duration(ms * float64(time.Millisecond)))
		}
		o.builtin = true
	case ccAPIRequest:
		o.kind = kindChat
		o.usage = noUsage()
		o.usage.known = true
		o.usage.model = str(a, "model")
		o.usage.input, _ = countOr(a, "input_tokens")
		o.usage.output, _ = countOr(a, "output_tokens")
		o.usage.cacheRead, _ = countOr(a, "cache_read_tokens")
		o.usage.cacheWrite, _ = countOr(a, "cache_creation_tokens")
		if c, ok := num(a, "cost_usd"); ok {
			o.usage.costUSD = c
		}
		o.usage.durationMS, _ = countOr(a, "duration_ms")
	case cxSSEEvent:
		if msg := str(a, "error.message"); msg != "" {
			o.kind = kindError
			o.errText = msg
			o.extra = map[string]any{"event": str(a, "event.kind")}
			break
		}
		if str(a, "event.kind") != "response.completed" {
			return o, false
		}
		o.kind = kindChat
		o.usage = noUsage()
		o.usage.model = str(a, "model")
		var any1, any2 bool
		o.usage.input, any1 = countOr(a, "input_token_count")
		o.usage.output, any2 = countOr(a, "output_token_count")
		o.usage.cacheRead, _ = countOr(a, "cached_token_count")
		o.usage.reasoning, _ = countOr(a, "reasoning_token_count")
		o.usage.durationMS, _ = countOr(a, "duration_ms")
		o.usage.known = any1 || any2
	case ccAPIError, cxAPIRequest:
		msg := str(a, "error", "error.message")
		if msg == "" {
			return o, false // a request that went well: its usage comes with its answer
		}
		o.kind = kindError
		o.errText = msg
		o.extra = map[string]any{}
		if code := str(a, "status_code", "http.response.status_code"); code != "" {
			o.extra["statusCode"] = code
		}
		if n, ok := count(a, "attempt"); ok {
			o.extra["attempt"] = n
		}
		if m := str(a, "model"); m != "" {
			o.extra["model"] = m
		}
	default:
		return t.genAIEvent(name, a, lr, o)
	}
	switch name {
	case ccUserPrompt, ccToolDecision, ccToolResult, ccAPIRequest, ccAPIError:
		o.runKey = str(a, "prompt.id")
		o.newRun = o.kind == kindPrompt && o.runKey == ""
	case cxUserPrompt:
		o.newRun = true
	}
	return o, true
}

// countOr is count, -1 when absent.
func countOr(m pcommon.Map, keys ...string) (int64, bool) {
	if n, ok := count(m, keys...); ok {
		return n, true
	}
	return -1, false
}

// decisionWord is a decision in two words: "accept" (Claude Code's accept,
// Codex's approved, approved_for_session) or "reject" (reject, denied,
// abort); "" for none.
func decisionWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case s == "":
		return ""
	case strings.HasPrefix(s, "accept"), strings.HasPrefix(s, "approve"), strings.HasPrefix(s, "allow"):
		return "accept"
	}
	return "reject"
}

// genAIEvent maps the GenAI conventions' older per-message events, which
// instrumentations emit as log records inside a model call's span.
func (t *Translator) genAIEvent(name string, a pcommon.Map, lr plog.LogRecord, o observation) (observation, bool) {
	body := lr.Body()
	content := ""
	if body.Type() == pcommon.ValueTypeMap {
		content = str(body.Map(), "content")
		if content == "" {
			if m, ok := body.Map().Get("message"); ok && m.Type() == pcommon.ValueTypeMap {
				content = str(m.Map(), "content")
			}
		}
	}
	if content == "" || redacted(content) {
		return o, false
	}
	o.kind = kindChat
	o.usage = noUsage()
	switch name {
	case "gen_ai.user.message":
		// Every model call repeats the conversation: the user's message
		// is shown once, when it is new (see translate.go, chat).
		o.inputUser = content
	case "gen_ai.choice", "gen_ai.assistant.message":
		o.text = content
	default:
		return o, false
	}
	if o.trace != "" {
		o.runKey = o.trace
	}
	return o, true
}
