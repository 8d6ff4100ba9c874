package compact

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// maxJump bounds how many slots an event may be moved over; past it the
// compactor cuts instead, so hostile logs cannot make it quadratic.
const maxJump = 64

// Fixed compacts a log the reference's way without its two faults:
//
//   - streams are written in the order they START (the reference writes
//     them as they END, which swaps overlapping messages and parallel tool
//     calls), each as START, one merged delta, END, then the events that
//     arrived while it was the open stream they were parked on;
//   - a run's end (RUN_FINISHED or RUN_ERROR) closes the streams still
//     open in it: they are written before the run's terminal event instead
//     of after the last run.
//
// Every move is checked: an event is only moved over events it commutes
// with (see footprintOf). Where a move would not be safe, the compactor
// "cuts": it writes everything pending as it stands, streams still open
// included (as START and merged delta, their END to come later), and goes
// on from there. So the output folds like the input whatever the input is;
// a cut only costs some compaction.
//
// State events are collapsed per run as the reference does. While a chunk
// stream may be open (TEXT/TOOL_CALL/REASONING_MESSAGE_CHUNK seen since the
// last run boundary or MESSAGES_SNAPSHOT) events are written as they come:
// chunk expansion depends on where each event stands.
func Fixed(recs []model.Record) []model.Record {
	f := &fixer{streams: newOrderedMap[*stream]()}
	for i := range recs {
		f.add(&recs[i])
	}
	f.cut()
	collapseState(f.window, &f.out)
	return f.out.done()
}

// fixer is Fixed's state: the output so far, the slots not yet written (in
// output order), the streams open now, and the state window.
type fixer struct {
	out       output
	pending   []*slot
	streams   *orderedMap[*stream] // open streams, keyed "text:"/"tool:"+id
	window    []*model.Record
	chunkOpen bool
}

// slot is a place in the output: one event, or a part of a stream.
type slot struct {
	at    int // index in pending
	event *model.Record
	part  *part
	all   touched // everything in the slot
}

// part is a stream's events between two cuts.
type part struct {
	tool    bool
	id      string
	start   *model.Record
	deltas  []*model.Record
	end     *model.Record
	others  []*model.Record
	touched touched // the others
}

// stream is an open text message or tool call. started says a START was
// seen (only those park other events, as in the reference); cur is its
// part in the pending slots (nil after a cut).
type stream struct {
	key     string
	tool    bool
	id      string
	started bool
	cur     *slot
}

func (f *fixer) add(rec *model.Record) {
	ev := rec.Event
	switch ev.(type) {
	case *agui.RunStarted, *agui.RunFinished, *agui.RunError:
		f.cut()
		collapseState(f.window, &f.out)
		f.window = f.window[:0]
		f.out.pass(rec)
		if _, started := ev.(*agui.RunStarted); !started {
			// The run's end closes its streams (the fix for issue #2813).
			f.streams.clear()
		}
		f.chunkOpen = false
		return
	case *agui.TextMessageChunk, *agui.ToolCallChunk, *agui.ReasoningMessageChunk:
		if !f.chunkOpen {
			f.cut()
			collapseState(f.window, &f.out)
			f.window = f.window[:0]
			f.streams.clear()
			f.chunkOpen = true
		}
	}
	if f.chunkOpen {
		f.out.pass(rec)
		if _, snap := ev.(*agui.MessagesSnapshot); snap {
			f.chunkOpen = false // it closes every lane
		}
		return
	}
	switch e := ev.(type) {
	case *agui.StateSnapshot:
		f.state(rec, e.SubagentRunID)
	case *agui.StateDelta:
		f.state(rec, e.SubagentRunID)
	case *agui.TextMessageStart:
		f.start(rec, false, e.MessageID)
	case *agui.TextMessageContent:
		f.delta(rec, false, e.MessageID, false)
	case *agui.TextMessageEnd:
		f.delta(rec, false, e.MessageID, true)
	case *agui.ToolCallStart:
		f.start(rec, true, e.ToolCallID)
	case *agui.ToolCallArgs:
		f.delta(rec, true, e.ToolCallID, false)
	case *agui.ToolCallEnd:
		f.delta(rec, true, e.ToolCallID, true)
	default:
		f.other(rec)
	}
}

// state puts a state event in the run's window. One the verifier rejects
// (subagentRunId: null) must not reach the collapsed snapshot; it changes
// nothing, so it is treated as any other event.
func (f *fixer) state(rec *model.Record, tag agui.OptString) {
	if tag.State == agui.Null {
		f.other(rec)
		return
	}
	f.window = append(f.window, rec)
}

func streamKey(tool bool, id string) string {
	if tool {
		return "tool:" + id
	}
	return "text:" + id
}

func (f *fixer) start(rec *model.Record, tool bool, id string) {
	key := streamKey(tool, id)
	if _, ok := f.streams.get(key); ok {
		// A START for a stream already under way (replayed, or after
		// orphan deltas): the reference would hoist it over the deltas.
		// Write what is pending and begin afresh here.
		f.cut()
		f.streams.del(key)
	}
	s := &stream{key: key, tool: tool, id: id, started: true}
	f.streams.set(key, s)
	sl := f.newPart(s)
	sl.part.start = rec
	sl.all.add(footprintOf(rec))
}

func (f *fixer) delta(rec *model.Record, tool bool, id string, end bool) {
	key := streamKey(tool, id)
	s, ok := f.streams.get(key)
	if !ok {
		if end {
			f.plain(rec) // an END with nothing to close: the reference writes it in place
			return
		}
		s = &stream{key: key, tool: tool, id: id}
		f.streams.set(key, s)
	}
	fp := footprintOf(rec)
	if s.cur == nil || !f.canJump(fp, s.cur, true) {
		if s.cur != nil {
			f.cut()
		}
		f.newPart(s)
	}
	sl := s.cur
	if end {
		sl.part.end = rec
		f.streams.del(key)
	} else {
		sl.part.deltas = append(sl.part.deltas, rec)
	}
	sl.all.add(fp)
}

// other places any other event as the reference does: after the first open
// text message, else after the first open tool call, else where it is.
func (f *fixer) other(rec *model.Record) {
	var host *stream
	for _, tool := range []bool{false, true} {
		f.streams.each(func(_ string, s *stream) bool {
			if s.tool == tool && s.started {
				host = s
				return false
			}
			return true
		})
		if host != nil {
			break
		}
	}
	if host == nil {
		f.plain(rec)
		return
	}
	fp := footprintOf(rec)
	if host.cur == nil || !f.canJump(fp, host.cur, false) {
		if host.cur != nil {
			f.cut()
		}
		f.newPart(host)
	}
	p := host.cur.part
	p.others = append(p.others, rec)
	p.touched.add(fp)
	host.cur.all.add(fp)
}

// canJump reports whether an event may join slot sl: as a delta or END
// (inDeltas) it goes before the slot's parked events and everything after
// the slot; as a parked event, before everything after the slot.
func (f *fixer) canJump(fp footprint, sl *slot, inDeltas bool) bool {
	if inDeltas && sl.part.touched.clashes(fp) {
		return false
	}
	later := f.pending[sl.at+1:]
	if len(later) > maxJump {
		return false
	}
	for _, x := range later {
		if x.all.clashes(fp) {
			return false
		}
	}
	return true
}

func (f *fixer) newPart(s *stream) *slot {
	sl := &slot{at: len(f.pending), part: &part{tool: s.tool, id: s.id}}
	f.pending = append(f.pending, sl)
	s.cur = sl
	return sl
}

func (f *fixer) plain(rec *model.Record) {
	sl := &slot{at: len(f.pending), event: rec}
	sl.all.add(footprintOf(rec))
	f.pending = append(f.pending, sl)
}

// cut writes every pending slot; streams still open go on in new parts.
func (f *fixer) cut() {
	for _, sl := range f.pending {
		if sl.event != nil {
			f.out.pass(sl.event)
			continue
		}
		f.writePart(sl.part)
	}
	clear(f.pending)
	f.pending = f.pending[:0]
	f.streams.each(func(_ string, s *stream) bool { s.cur = nil; return true })
}

// writePart writes START, the deltas merged, END, then the parked events.
// A delta carrying a subagentRunId is written as it is: the verifier checks
// that tag, and the merged delta would not carry it.
func (f *fixer) writePart(p *part) {
	if p.start != nil {
		f.out.pass(p.start)
	}
	var run []*model.Record
	flush := func() {
		if len(run) == 0 {
			return
		}
		var text strings.Builder
		var md jsontext.Value
		for _, d := range run {
			b := d.Event.(agui.Event).Common()
			switch e := d.Event.(type) {
			case *agui.TextMessageContent:
				text.WriteString(e.Delta)
			case *agui.ToolCallArgs:
				text.WriteString(e.Delta)
			}
			if b.Metadata != nil {
				md = mergeMetadata(md, member(d.Raw, "metadata"))
			}
		}
		f.out.make(mergedDelta(p.tool, quote(p.id), text.String(), md))
		run = run[:0]
	}
	for _, d := range p.deltas {
		if d.Event.(agui.Event).Common().SubagentRunID.State != agui.Absent {
			flush()
			f.out.pass(d)
			continue
		}
		run = append(run, d)
	}
	flush()
	if p.end != nil {
		f.out.pass(p.end)
	}
	for _, o := range p.others {
		f.out.pass(o)
	}
}
