package compact

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Reference compacts a log exactly as compactEvents of @ag-ui/client 1.0.0
// does, faults included: a stream still open when
// its run ends is written after the run's terminal event (issue #2813), and
// streams are written in the order their ENDs arrive. It works on the JSON
// as read, as the reference does: an event's kind is its "type" string,
// whatever else it holds. Compact uses its output wherever it keeps the laws.
func Reference(recs []model.Record) []model.Record {
	r := &refCompactor{text: newOrderedMap[*refStream](), tool: newOrderedMap[*refStream]()}
	for i := range recs {
		r.add(&recs[i])
	}
	r.text.each(func(_ string, s *refStream) bool { r.flush(s, s.id, false); return true })
	r.tool.each(func(_ string, s *refStream) bool { r.flush(s, s.id, true); return true })
	collapseState(r.window, &r.out)
	return r.out.done()
}

// refCompactor is compactEvents' state: the pending text messages and tool
// calls (Maps in insertion order) and the state window.
type refCompactor struct {
	out    output
	text   *orderedMap[*refStream]
	tool   *orderedMap[*refStream]
	window []*model.Record
}

// refStream is one pending text message or tool call.
type refStream struct {
	id     jsontext.Value // the id it was first seen with
	start  *refStart
	deltas strings.Builder
	n      int
	end    *model.Record
	others []*model.Record
	// post is the reference's postStartMetadata: the deltas' metadata, and
	// that of a START replayed after them, in arrival order.
	post jsontext.Value
}

// refStart is the START a stream will be written with: an input record, or
// (obj set) that record with its metadata changed.
type refStart struct {
	rec *model.Record
	obj *object
}

func (s *refStart) metadata() jsontext.Value {
	if s == nil {
		return nil
	}
	if s.obj != nil {
		return s.obj.get("metadata")
	}
	return member(s.rec.Raw, "metadata")
}

// carryStart is carryStartMetadata: a START replayed before any delta; the
// later one wins but the metadata of both is merged.
func carryStart(prev *refStart, next *model.Record, nextObj *object) *refStart {
	if prev == nil {
		return &refStart{rec: next}
	}
	md := mergeMetadata(prev.metadata(), nextObj.get("metadata"))
	if md == nil {
		return &refStart{rec: next}
	}
	obj, ok := parseObject(next.Raw)
	if !ok {
		obj = newEvent(next.Event.EventType())
	}
	obj.set("metadata", md)
	return &refStart{rec: next, obj: obj}
}

// replaceStart is replaceStartFields: a START replayed after deltas keeps
// its fields but the earlier START's metadata; its own metadata goes to the
// merged delta.
func replaceStart(prev *refStart, next *model.Record) *refStart {
	obj, ok := parseObject(next.Raw)
	if !ok {
		obj = newEvent(next.Event.EventType())
	}
	obj.del("metadata")
	if md := prev.metadata(); md != nil {
		obj.set("metadata", md)
	}
	return &refStart{rec: next, obj: obj}
}

func (r *refCompactor) add(rec *model.Record) {
	typ := rec.Event.EventType()
	switch typ {
	case agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd:
		r.stream(rec, r.text, "messageId", false)
	case agui.TypeToolCallStart, agui.TypeToolCallArgs, agui.TypeToolCallEnd:
		r.stream(rec, r.tool, "toolCallId", true)
	case agui.TypeRunStarted, agui.TypeRunFinished, agui.TypeRunError:
		collapseState(r.window, &r.out)
		r.window = r.window[:0]
		r.out.pass(rec)
	case agui.TypeStateSnapshot, agui.TypeStateDelta:
		r.window = append(r.window, rec)
	default:
		if s := firstOpen(r.text); s != nil {
			s.others = append(s.others, rec)
		} else if s := firstOpen(r.tool); s != nil {
			s.others = append(s.others, rec)
		} else {
			r.out.pass(rec)
		}
	}
}

// firstOpen is the first pending stream that has its START (the reference's
// "in the middle of a streaming sequence").
func firstOpen(m *orderedMap[*refStream]) *refStream {
	var found *refStream
	m.each(func(_ string, s *refStream) bool {
		if s.start != nil {
			found = s
			return false
		}
		return true
	})
	return found
}

func (r *refCompactor) stream(rec *model.Record, m *orderedMap[*refStream], idName string, tool bool) {
	obj, _ := parseObject(rec.Raw)
	id := obj.get(idName)
	key := idKey(id)
	s, ok := m.get(key)
	if !ok {
		s = &refStream{id: id}
		m.set(key, s)
	}
	switch rec.Event.EventType() {
	case agui.TypeTextMessageStart, agui.TypeToolCallStart:
		if s.n == 0 {
			s.start = carryStart(s.start, rec, obj)
		} else {
			s.start = replaceStart(s.start, rec)
			s.post = mergeMetadata(s.post, obj.get("metadata"))
		}
	case agui.TypeTextMessageContent, agui.TypeToolCallArgs:
		s.deltas.WriteString(jsString(obj.get("delta")))
		s.n++
		s.post = mergeMetadata(s.post, obj.get("metadata"))
	default:
		s.end = rec
		r.flush(s, id, tool)
		m.del(key)
	}
}

// flush writes a stream: START, one merged delta, END, then the events that
// arrived while it was open.
func (r *refCompactor) flush(s *refStream, id jsontext.Value, tool bool) {
	if s.start != nil {
		if s.start.obj != nil {
			r.out.make(s.start.obj.encode())
		} else {
			r.out.pass(s.start.rec)
		}
	}
	if s.n > 0 {
		r.out.make(mergedDelta(tool, id, s.deltas.String(), s.post))
	}
	if s.end != nil {
		r.out.pass(s.end)
	}
	for _, o := range s.others {
		r.out.pass(o)
	}
}

// mergedDelta is the one TEXT_MESSAGE_CONTENT or TOOL_CALL_ARGS a stream's
// deltas become: type, id, the joined delta and the merged metadata. Their
// timestamp, rawEvent and subagentRunId are not kept.
func mergedDelta(tool bool, id jsontext.Value, delta string, md jsontext.Value) jsontext.Value {
	typ, idName := agui.TypeTextMessageContent, "messageId"
	if tool {
		typ, idName = agui.TypeToolCallArgs, "toolCallId"
	}
	ev := newEvent(typ)
	if id != nil {
		ev.set(idName, id)
	}
	ev.set("delta", quote(delta))
	if md != nil {
		ev.set("metadata", md)
	}
	return ev.encode()
}
