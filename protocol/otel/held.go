package otel

import (
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// A span waits to be mapped while nothing says which conversation (so
// which thread) it belongs to: in a GenAI trace often only the agent's
// span names the conversation, and an exporter sends each span when it
// ends, the agent's last. Mapped at once, the trace's first spans would
// make a thread of their own (trace-ID) that one request in order never
// makes. A span waits until a span of its trace names the conversation,
// its trace's root span comes (then, with none named, the trace is its
// own thread), its telemetry is holdFor older than the newest the
// translator was sent (an exporter whose root span never comes, or comes
// late), or the telemetry ends (Finish). A permission span waits likewise
// for the tool span it belongs to, which names the call.
const (
	holdFor = 10 * time.Second
	// maxHeld bounds the spans waiting: past it the oldest is mapped.
	maxHeld = 4096
)

// heldSpan is a span waiting to be mapped, with its resource's attributes.
type heldSpan struct {
	res   pcommon.Map
	span  ptrace.Span
	trace string
	end   time.Time
}

// hold keeps a span that the mapping reads until release maps it.
func (t *Translator) hold(res pcommon.Map, sp ptrace.Span) {
	if spanRole(sp.Name(), sp.Attributes()) == roleNone {
		return
	}
	end := known(sp.EndTimestamp().AsTime())
	if end.IsZero() {
		end = known(sp.StartTimestamp().AsTime())
	}
	t.heard(end)
	t.held = append(t.held, heldSpan{res: res, span: sp, trace: hexTrace(sp.TraceID()), end: end})
}

// heard moves the translator's clock on to at, when later.
func (t *Translator) heard(at time.Time) {
	if at.After(t.newest) {
		t.newest = at
	}
}

// release maps, onto obs, every span that need not wait any more; with
// all, every span.
func (t *Translator) release(obs []observation, all bool) []observation {
	for i := range obs {
		t.heard(obs[i].end)
	}
	over := len(t.held) - maxHeld
	kept := t.held[:0]
	for i, h := range t.held {
		if all || i < over || t.placed(h) || (!h.end.IsZero() && t.newest.Sub(h.end) > holdFor) {
			obs = t.spanObservation(h.res, h.span, obs)
			continue
		}
		kept = append(kept, h)
	}
	clear(t.held[len(kept):])
	t.held = kept
	return obs
}

// placed reports whether a span's thread is known: it, or what is known
// of its trace, names a conversation, or its trace's root came; and, for
// a permission span, whether its tool span came.
func (t *Translator) placed(h heldSpan) bool {
	a := h.span.Attributes()
	if spanRole(h.span.Name(), a) == roleDecision {
		if _, ok := t.spans.get(spanKey(h.trace, hexSpan(h.span.ParentSpanID()))); !ok {
			return false
		}
	}
	if !t.runKnown(h) {
		return false
	}
	if h.trace == "" || conversation(a, h.res) != "" {
		return true
	}
	for _, set := range []*bounded[struct{}]{t.byTrace, t.roots} {
		if _, ok := set.get(h.trace); ok {
			return true
		}
	}
	if _, ok := t.traceConv.get(h.trace); ok {
		return true
	}
	named := false
	t.ancestors(spanKey(h.trace, hexSpan(h.span.SpanID())), func(_ string, info spanInfo) bool {
		named = info.conv != ""
		return !named
	})
	return named
}

// runKnown reports whether the run of a Claude Code span is known: it
// names its prompt, is the interaction, or an interaction above it came,
// or its trace's root did (then there is none). Other spans' runs are
// their traces.
func (t *Translator) runKnown(h heldSpan) bool {
	name := h.span.Name()
	if !strings.HasPrefix(name, "claude_code.") || name == ccInteraction || str(h.span.Attributes(), "prompt.id") != "" {
		return true
	}
	if _, ok := t.roots.get(h.trace); ok {
		return true
	}
	found := false
	t.ancestors(spanKey(h.trace, hexSpan(h.span.SpanID())), func(_ string, info spanInfo) bool {
		found = info.interaction || info.promptID != ""
		return !found
	})
	return found
}
