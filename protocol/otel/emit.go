package otel

import (
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// emit adds one AG-UI event of thread th at time at (none when zero) to
// the output: encoded as JSON, and decoded back as every AG-UI record is,
// so it folds exactly as the same event read from a log would.
func (t *Translator) emit(th *threadState, at time.Time, ev map[string]any) {
	if !at.IsZero() {
		ms := at.UnixMilli()
		ev["timestamp"] = ms
		at = time.UnixMilli(ms).UTC()
		if r := th.open; r != nil && at.After(r.last) {
			r.last = at
		}
	}
	raw, err := agui.MarshalEvent(validUTF8(ev))
	if err != nil {
		// Only valid strings, numbers and maps and lists of them are put
		// in events.
		panic("otel: encode event: " + err.Error())
	}
	t.seq++
	rec := model.Record{Seq: t.seq, At: at, Proto: model.ProtoAGUI, Raw: raw, Event: agui.Decode(raw), Thread: th.id}
	t.out = append(t.out, rec)
}

// emitAs is emit for an event of subagent run sub ("" for the run's own
// agent): the event carries it as its subagentRunId.
func (t *Translator) emitAs(th *threadState, at time.Time, sub string, ev map[string]any) {
	if sub != "" {
		ev["subagentRunId"] = sub
	}
	t.emit(th, at, ev)
}

// validUTF8 replaces invalid UTF-8 in the strings of v (telemetry decoded
// from protobuf is not checked), so that every event encodes.
func validUTF8(v any) any {
	switch x := v.(type) {
	case string:
		return strings.ToValidUTF8(x, "\uFFFD")
	case map[string]any:
		for k, e := range x {
			x[k] = validUTF8(e)
		}
	case []map[string]any:
		for _, e := range x {
			validUTF8(e)
		}
	}
	return v
}
