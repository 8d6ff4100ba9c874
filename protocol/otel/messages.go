package otel

import (
	"encoding/json"
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// spanUsage is a model call's model and token counts, in the GenAI
// conventions' names, OpenInference's, or Claude Code's.
func spanUsage(a pcommon.Map) usage {
	u := noUsage()
	u.model = str(a, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "model")
	u.provider = str(a, "gen_ai.provider.name", "gen_ai.system", "llm.provider", "llm.system")
	var k1, k2 bool
	u.input, k1 = countOr(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "input_tokens")
	u.output, k2 = countOr(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion", "output_tokens")
	u.cacheRead, _ = countOr(a, "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens", "cache_read_tokens")
	u.cacheWrite, _ = countOr(a, "gen_ai.usage.cache_creation.input_tokens", "gen_ai.usage.cache_creation_input_tokens", "cache_creation_tokens")
	u.reasoning, _ = countOr(a, "gen_ai.usage.reasoning.output_tokens", "codex.usage.reasoning_output_tokens")
	u.known = k1 || k2
	return u
}

// outputText is the text of a model call's answer when it was recorded:
// gen_ai.output.messages (on the span, or on its inference event), or
// OpenInference's llm.output_messages.
func outputText(sp ptrace.Span, a pcommon.Map) string {
	if v, ok := a.Get("gen_ai.output.messages"); ok {
		return messagesText(v, "assistant", false)
	}
	evs := sp.Events()
	for i := 0; i < evs.Len(); i++ {
		if v, ok := evs.At(i).Attributes().Get("gen_ai.output.messages"); ok {
			return messagesText(v, "assistant", false)
		}
	}
	return flatMessages(a, "llm.output_messages", "assistant", false)
}

// inputUser is the user's last message in a model call's input, when the
// input was recorded and ends with the user's turn.
func inputUser(a pcommon.Map) string {
	if v, ok := a.Get("gen_ai.input.messages"); ok {
		return messagesText(v, "user", true)
	}
	return flatMessages(a, "llm.input_messages", "user", true)
}

// messagesText reads GenAI messages (a JSON string, or a list as the
// newer conventions send it) and returns the text parts of the messages
// of role; with last, only of the last message, and only when it is of
// that role.
func messagesText(v pcommon.Value, role string, last bool) string {
	var msgs []map[string]any
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if json.Unmarshal([]byte(v.Str()), &msgs) != nil {
			return ""
		}
	case pcommon.ValueTypeSlice:
		for _, m := range v.Slice().AsRaw() {
			if mm, ok := m.(map[string]any); ok {
				msgs = append(msgs, mm)
			}
		}
	default:
		return ""
	}
	if last && len(msgs) > 0 {
		msgs = msgs[len(msgs)-1:]
	}
	var parts []string
	for _, m := range msgs {
		if r, _ := m["role"].(string); r != role {
			continue
		}
		if s, ok := m["content"].(string); ok && s != "" {
			parts = append(parts, s)
		}
		ps, _ := m["parts"].([]any)
		for _, p := range ps {
			pm, _ := p.(map[string]any)
			if typ, _ := pm["type"].(string); typ != "text" {
				continue
			}
			if s, ok := pm["content"].(string); ok && s != "" {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// flatMessages reads OpenInference's flattened messages
// (prefix.N.message.role, prefix.N.message.content).
func flatMessages(a pcommon.Map, prefix, role string, last bool) string {
	var parts []string
	lastRole := ""
	for i := 0; ; i++ {
		p := prefix + "." + strconv.Itoa(i) + ".message."
		r, ok := a.Get(p + "role")
		if !ok {
			break
		}
		lastRole = r.AsString()
		if lastRole != role {
			if last {
				parts = parts[:0]
			}
			continue
		}
		c := str(a, p+"content")
		if last {
			parts = append(parts[:0], c)
		} else if c != "" {
			parts = append(parts, c)
		}
	}
	if last && lastRole != role {
		return ""
	}
	return strings.Join(parts, "\n\n")
}

// jsonObject is v as JSON text.
func jsonObject(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
