package otel

import (
	"strings"
	"time"
)

// kind is what an observation says happened.
type kind uint8

const (
	// kindAgent: an agent ran (GenAI invoke_agent, OpenInference AGENT, a
	// Claude Code interaction): a run, or an agent within one.
	kindAgent kind = iota + 1
	// kindTool: a tool ran, as a span or as a result event.
	kindTool
	// kindDecision: a tool call was allowed or refused.
	kindDecision
	// kindPrompt: the user's prompt.
	kindPrompt
	// kindChat: a model call: its answer when recorded, its usage.
	kindChat
	// kindError: a model call failed (the run goes on: agents retry).
	kindError
)

// rank orders observations of the same time: an agent's start before
// what it does, a decision before the call it allows.
func (k kind) rank() int {
	switch k {
	case kindAgent:
		return 0
	case kindPrompt:
		return 1
	case kindDecision:
		return 2
	case kindTool:
		return 3
	}
	return 4
}

// place is where an observation belongs: a conversation of a service on a
// host. Its id names the thread.
type place struct{ service, host, conv string }

// id is the thread id: service/host/conversation, leaving out what is
// not known ("otlp" when nothing is).
func (p place) id() string {
	var parts []string
	for _, s := range []string{p.service, p.host, p.conv} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "otlp"
	}
	return strings.Join(parts, "/")
}

// observation is one thing an agent's telemetry says, in the terms of the
// mapping, before it becomes AG-UI events.
type observation struct {
	kind  kind
	place place
	// runKey names the run it belongs to when the telemetry says
	// (Claude Code's prompt.id, a trace); "" means the thread's open run.
	runKey string
	// newRun starts a run of its own (a prompt that names no run).
	newRun bool
	// trace, span and parent are the hex ids of the span or log record.
	trace, span, parent string
	// start and end are when it began and ended (equal for an instant).
	start, end time.Time
	// order is the observation's place in its input, to keep order among
	// things of the same time.
	order int

	// name is the tool's, the agent's or the model's name.
	name string
	// provider is the model's provider (chat).
	provider string
	// callID is the tool call's id; named says the telemetry named it
	// (else it is the other half's, or made up: join.go).
	callID string
	named  bool
	// paired says a decision and a result were joined (join.go).
	paired bool
	// fromLog says it is a log event, whose halves are joined by time.
	fromLog bool
	// args and result are the tool's arguments (JSON text, usually) and
	// result, as recorded ("" when not).
	args, result string
	hasArgs      bool
	hasResult    bool
	// failed and errText say a tool or an agent failed, and why.
	failed  bool
	errText string
	// decision ("accept" or "reject") and source are a tool decision's.
	decision, source string
	// text is the prompt's or the answer's text; promptLen a prompt's
	// length when its text was not recorded.
	text      string
	promptLen int64
	// inputUser is the user's last message in a model call's input.
	inputUser string
	usage     usage
	// builtin says the tool is an agent's own (Claude Code, Codex), whose
	// category and location agentwatch knows (tools.go).
	builtin bool
	// nested says an agent runs inside another agent of its run: it is a
	// subagent run (AG-UI SUBAGENT_*), identified by its span id.
	nested bool
	// sub is the subagent run the observation happens in: the span id of
	// the nearest nested agent around it ("" for the run's own agent). For
	// a nested agent it is the subagent that runs it, its parent.
	sub string
	// parentCall is, for a nested agent called as a tool, the tool call
	// whose span encloses it (AG-UI parentToolCallId).
	parentCall string
	// desc is a nested agent's description (gen_ai.agent.description).
	desc string
	// pendingAbove is, for an agent taken as nested because a span above
	// it has not come, that span's key (pending.go).
	pendingAbove string
	// extra is what an activity row shows besides (an error's status code,
	// a usage's cost).
	extra map[string]any
}

// usage is what a model call cost in tokens (each -1 when not known).
type usage struct {
	model                                string
	provider                             string
	input, output, cacheRead, cacheWrite int64
	reasoning                            int64
	costUSD                              float64
	durationMS                           int64
	known                                bool
}

func noUsage() usage {
	return usage{input: -1, output: -1, cacheRead: -1, cacheWrite: -1, reasoning: -1, costUSD: -1, durationMS: -1}
}

// instant sets start and end to t.
func (o *observation) instant(t time.Time) { o.start, o.end = t, t }
