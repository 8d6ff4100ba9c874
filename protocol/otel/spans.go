package otel

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// role is what a span is to the mapping.
type role uint8

const (
	roleNone role = iota
	// roleAgent: GenAI invoke_agent or invoke_workflow, OpenInference
	// AGENT, a Claude Code interaction (one prompt's turn).
	roleAgent
	// roleTool: GenAI execute_tool, OpenInference TOOL, claude_code.tool.
	roleTool
	// roleChat: a model call: GenAI chat, text_completion,
	// generate_content; OpenInference LLM; claude_code.llm_request.
	roleChat
	// roleDecision: claude_code.tool.blocked_on_user, the wait for a
	// permission answer inside a tool span.
	roleDecision
)

// Claude Code's span names.
const (
	ccInteraction = "claude_code.interaction"
	ccTool        = "claude_code.tool"
	ccBlocked     = "claude_code.tool.blocked_on_user"
	ccLLMRequest  = "claude_code.llm_request"
)

// spanRole tells a span's role from its operation (GenAI), its span kind
// (OpenInference) or its name (Claude Code).
func spanRole(name string, a pcommon.Map) role {
	switch str(a, "gen_ai.operation.name") {
	case "invoke_agent", "invoke_workflow":
		return roleAgent
	case "execute_tool":
		return roleTool
	case "chat", "text_completion", "generate_content":
		return roleChat
	}
	switch strings.ToUpper(str(a, "openinference.span.kind")) {
	case "AGENT":
		return roleAgent
	case "TOOL":
		return roleTool
	case "LLM":
		return roleChat
	}
	switch name {
	case ccInteraction:
		return roleAgent
	case ccTool:
		return roleTool
	case ccBlocked:
		return roleDecision
	case ccLLMRequest:
		return roleChat
	}
	return roleNone
}

// spanInfo is what the translator remembers of a span, to place the spans
// that arrive after it: its parent, role and what it names.
type spanInfo struct {
	parent      string // the parent's spanKey ("" for a root)
	role        role
	conv        string
	promptID    string
	interaction bool
	// callID and tool are a tool span's, for the decision spans inside it.
	callID, tool string
	// agent is an agent span's agent name, for the agents it runs.
	agent string
}

// spanKey identifies a span: trace id and span id in hex.
func spanKey(trace, span string) string { return trace + "/" + span }

// spanOf is the span id of a spanKey.
func spanOf(key string) string { return key[strings.IndexByte(key, '/')+1:] }

// hexTrace and hexSpan are ids as OTLP JSON writes them ("" when empty).
func hexTrace(id pcommon.TraceID) string {
	if id.IsEmpty() {
		return ""
	}
	return id.String()
}

func hexSpan(id pcommon.SpanID) string {
	if id.IsEmpty() {
		return ""
	}
	return id.String()
}

// conversation is the conversation or session a span or record names.
func conversation(attrs ...pcommon.Map) string {
	for _, a := range attrs {
		if c := str(a, "gen_ai.conversation.id", "session.id", "conversation.id", "session_id"); c != "" {
			return c
		}
	}
	return ""
}

// learnSpans remembers every span of td (and the conversation each trace
// names, and which traces' roots came) before any is mapped, so a span is
// placed by what its whole batch says: its ancestors' conversation,
// whether an agent encloses it.
func (t *Translator) learnSpans(td ptrace.Traces) {
	forSpans(td, func(res pcommon.Map, sp ptrace.Span) {
		a := sp.Attributes()
		trace, span := hexTrace(sp.TraceID()), hexSpan(sp.SpanID())
		if trace == "" || span == "" {
			return
		}
		info := spanInfo{role: spanRole(sp.Name(), a), conv: conversation(a), promptID: str(a, "prompt.id"),
			interaction: sp.Name() == ccInteraction}
		if p := hexSpan(sp.ParentSpanID()); p != "" {
			info.parent = spanKey(trace, p)
		} else {
			t.roots.put(trace, struct{}{})
		}
		switch info.role {
		case roleTool:
			info.callID, info.tool = toolCallID(a, span), toolName(sp.Name(), a)
		case roleAgent:
			info.agent = agentName(sp.Name(), a)
		}
		t.spans.put(spanKey(trace, span), info)
		if c := info.conv; c != "" {
			if _, ok := t.traceConv.get(trace); !ok {
				t.traceConv.put(trace, c)
			}
		}
	})
}

// forSpans calls f for every span of td with its resource's attributes.
func forSpans(td ptrace.Traces, f func(res pcommon.Map, sp ptrace.Span)) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		rs := rss.At(i)
		res := rs.Resource().Attributes()
		sss := rs.ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				f(res, spans.At(k))
			}
		}
	}
}

// maxDepth bounds a walk up a span's ancestors (a cycle in bad input
// must not loop).
const maxDepth = 64

// ancestors calls f for each known ancestor of the span key, nearest
// first, until f returns false.
func (t *Translator) ancestors(key string, f func(key string, info spanInfo) bool) {
	info, ok := t.spans.get(key)
	for d := 0; ok && info.parent != "" && d < maxDepth; d++ {
		key = info.parent
		if info, ok = t.spans.get(key); !ok || !f(key, info) {
			return
		}
	}
}

// spanObservation maps one span (a Claude Code interaction that records
// its prompt gives two observations).
func (t *Translator) spanObservation(res pcommon.Map, sp ptrace.Span, out []observation) []observation {
	a := sp.Attributes()
	r := spanRole(sp.Name(), a)
	if r == roleNone {
		return out
	}
	o := observation{order: t.nextOrder(), trace: hexTrace(sp.TraceID()), span: hexSpan(sp.SpanID()),
		parent: hexSpan(sp.ParentSpanID()), start: sp.StartTimestamp().AsTime(), end: sp.EndTimestamp().AsTime()}
	if sp.StartTimestamp() == 0 {
		o.start = o.end
	}
	if sp.EndTimestamp() == 0 {
		o.end = o.start
	}
	key := spanKey(o.trace, o.span)
	o.place = t.spanPlace(res, a, key, o.trace)
	o.runKey = t.spanRunKey(a, key, o.trace)
	var parent string
	o.sub, o.parentCall, parent = t.owner(key)
	if sp.Status().Code() == ptrace.StatusCodeError {
		o.failed = true
		o.errText = sp.Status().Message()
		if o.errText == "" {
			o.errText = str(a, "error.type", "exception.message")
		}
		if o.errText == "" {
			o.errText = "failed"
		}
	}
	switch r {
	case roleAgent:
		o.kind = kindAgent
		o.name = agentName(sp.Name(), a)
		o.nested = t.agentAbove(key)
		if up, unknown := t.unknownAbove(key); !o.nested && unknown {
			// Live, spans come as they end: the agents above this one
			// may still come. Until a span above it says otherwise it is
			// a subagent run, which does not end the run (pending.go).
			o.nested, o.pendingAbove = true, up
		}
		o.desc = str(a, "gen_ai.agent.description")
		if o.nested {
			o.desc = joinNonEmpty(" · ", o.desc, calledBy(parent, o.parentCall))
		}
		if sp.Name() == ccInteraction {
			if p := str(a, "user_prompt", "prompt"); p != "" || hasKey(a, "user_prompt_length") {
				pr := o
				pr.kind, pr.order, pr.text = kindPrompt, t.nextOrder(), p
				pr.promptLen, _ = count(a, "user_prompt_length", "prompt_length")
				pr.instant(o.start)
				out = append(out, pr)
			}
		}
	case roleTool:
		o.kind = kindTool
		o.name = toolName(sp.Name(), a)
		o.callID = toolCallID(a, o.span)
		o.args = str(a, "gen_ai.tool.call.arguments", "input.value", "tool_input", "tool_parameters")
		if o.args == "" {
			if fp := str(a, "file_path"); fp != "" {
				o.args = jsonObject(map[string]any{"file_path": fp})
			}
		}
		o.hasArgs = o.args != ""
		o.result = str(a, "gen_ai.tool.call.result", "output.value", "tool_output")
		o.hasResult = o.result != ""
		if ok, known := flag(a, "success"); known && !ok {
			o.failed = true
			if o.errText == "" {
				o.errText = str(a, "error")
			}
		}
		o.builtin = strings.HasPrefix(sp.Name(), "claude_code.")
	case roleDecision:
		o.kind = kindDecision
		parent, _ := t.spans.get(spanKey(o.trace, o.parent))
		o.callID, o.name = parent.callID, parent.tool
		o.decision = decisionWord(str(a, "decision"))
		o.source = str(a, "source")
		o.instant(o.end)
		o.builtin = true
		if o.callID == "" || o.decision == "" {
			return out
		}
	case roleChat:
		o.kind = kindChat
		o.usage = spanUsage(a)
		o.text = outputText(sp, a)
		o.inputUser = inputUser(a)
		o.instant(o.end)
	}
	return append(out, o)
}

// owner is the subagent run a span happens in: the span id of the
// nearest agent above it when another agent runs that one (a nested
// agent), "" when the nearest is the run's own agent or none is known.
// call is the tool call nearest above the span below that agent: for a
// nested agent, the call that invoked it ("agent as a tool"); parent is
// that nearest agent's name.
func (t *Translator) owner(key string) (sub, call, parent string) {
	var agents []string
	t.ancestors(key, func(k string, info spanInfo) bool {
		switch info.role {
		case roleTool:
			if len(agents) == 0 && call == "" {
				call = info.callID
			}
		case roleAgent:
			if len(agents) == 0 {
				parent = info.agent
			}
			agents = append(agents, spanOf(k))
		}
		return len(agents) < 2
	})
	if len(agents) == 2 {
		sub = agents[0]
	}
	return sub, call, parent
}

// agentName is an agent span's agent: gen_ai.agent.name, else the span's
// name.
func agentName(spanName string, a pcommon.Map) string {
	if n := str(a, "gen_ai.agent.name"); n != "" {
		return n
	}
	return spanName
}

// calledBy says in words which agent (and which of its tool calls) runs a
// nested agent, for its row: the AG-UI parent ids are not shown.
func calledBy(parent, call string) string {
	s := ""
	if parent != "" {
		s = "called by " + parent
	}
	if call != "" {
		s = joinNonEmpty(" ", s, "through tool call "+call)
	}
	return s
}

// joinNonEmpty joins the parts that are not empty with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// unknownAbove is the nearest span above key that has not come (yet):
// the span key of the parent that the highest known ancestor names.
// unknown is false when the span's ancestors are all known, up to a root.
func (t *Translator) unknownAbove(key string) (up string, unknown bool) {
	info, ok := t.spans.get(key)
	for d := 0; ok && d < maxDepth; d++ {
		if info.parent == "" {
			return "", false
		}
		next, known := t.spans.get(info.parent)
		if !known {
			return info.parent, true
		}
		info = next
	}
	return "", false
}

// agentAbove reports whether a span (key) has an agent above it: an agent
// span is then a subagent run inside the outer agent's run.
func (t *Translator) agentAbove(key string) bool {
	nested := false
	t.ancestors(key, func(_ string, info spanInfo) bool {
		nested = info.role == roleAgent
		return !nested
	})
	return nested
}

// hasKey reports whether m holds k.
func hasKey(m pcommon.Map, k string) bool { _, ok := m.Get(k); return ok }

// toolName is a tool span's tool: gen_ai.tool.name, OpenInference's
// tool.name, Claude Code's tool_name, else the span's name less the
// operation ("execute_tool Bash").
func toolName(spanName string, a pcommon.Map) string {
	if n := str(a, "gen_ai.tool.name", "tool.name", "tool_name"); n != "" {
		return n
	}
	if n := strings.TrimSpace(strings.TrimPrefix(spanName, "execute_tool")); n != "" {
		return n
	}
	return "tool"
}

// toolCallID is the tool call's id (the model's tool-use id), else the
// span's own id.
func toolCallID(a pcommon.Map, span string) string {
	if id := str(a, "gen_ai.tool.call.id", "tool_use_id", "tool_call.id", "tool.call.id"); id != "" {
		return id
	}
	return span
}

// spanPlace is the thread of a span: its service and host, and the
// conversation it names, or its nearest ancestor names, or its trace
// names; a trace that names none is a conversation of its own.
func (t *Translator) spanPlace(res, a pcommon.Map, key, trace string) place {
	p := place{service: str(res, "service.name"), host: str(res, "host.name")}
	if _, ok := t.byTrace.get(trace); ok {
		// Spans of this trace went to the trace's own thread before its
		// conversation was known: the rest follow them there.
		p.conv = "trace-" + trace
		return p
	}
	p.conv = conversation(a, res)
	if p.conv == "" {
		t.ancestors(key, func(_ string, info spanInfo) bool {
			p.conv = info.conv
			return p.conv == ""
		})
	}
	if p.conv == "" {
		p.conv, _ = t.traceConv.get(trace)
	}
	if p.conv == "" && trace != "" {
		p.conv = "trace-" + trace
		t.byTrace.put(trace, struct{}{})
	}
	return p
}

// spanRunKey is the run a span belongs to: the prompt its Claude Code
// attributes name, else the Claude Code interaction around it, else its
// trace.
func (t *Translator) spanRunKey(a pcommon.Map, key, trace string) string {
	if id := str(a, "prompt.id"); id != "" {
		return id
	}
	run := ""
	if info, ok := t.spans.get(key); ok && info.interaction {
		run = spanOf(key)
	}
	t.ancestors(key, func(k string, info spanInfo) bool {
		switch {
		case info.promptID != "":
			run = info.promptID
			return false
		case info.interaction && run == "":
			run = spanOf(k)
		}
		return true
	})
	if run != "" {
		return run
	}
	return trace
}

// logPlace is the thread of a log record: its service and host, and the
// conversation it names, or the one its trace names.
func (t *Translator) logPlace(res, a pcommon.Map, trace string) place {
	p := place{service: str(res, "service.name"), host: str(res, "host.name"), conv: conversation(a, res)}
	if _, ok := t.byTrace.get(trace); ok && trace != "" {
		p.conv = "trace-" + trace
	} else if p.conv == "" && trace != "" {
		p.conv, _ = t.traceConv.get(trace)
	}
	return p
}
