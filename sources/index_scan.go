package sources

// scannedEvent is what scanEvent learns of an event without decoding it.
type scannedEvent struct {
	typ   []byte // the "type" value, which has no escapes
	ms    int64  // the "timestamp" in milliseconds, when timed
	timed bool
}

// scanEvent reads the type and timestamp of the event in raw in one pass
// that also checks raw is one JSON object. It reports ok only when they
// are certain to be what agui.Decode and agui.Time would give; anything
// else (a problem, an escape in a member name, a second "type", a float or
// string timestamp, a common field of an odd shape, deep nesting) is left
// to the decoder. The certain case is how producers write events:
//
//   - raw is valid JSON, as jsontext reads it (duplicate names and invalid
//     UTF-8 allowed), so decoding cannot find it unreadable;
//   - its first member is "type" with a plain ASCII string, which is what
//     agui's fast path reads, and no other top-level member is "type";
//   - "timestamp", if there, appears once as an integer of at most 15
//     digits, read as agui.Timestamp reads it;
//   - the other common fields have the shape agui.Base needs ("metadata"
//     an object, "subagentRunId" a string; "rawEvent" takes anything), so
//     the timestamp survives even when the rest of the event is malformed.
func scanEvent(raw []byte) (ev scannedEvent, ok bool) {
	s := jsonScan{b: raw}
	if !s.take('{') || !s.member([]byte(`"type"`)) {
		return ev, false
	}
	if ev.typ, ok = s.plainString(); !ok {
		return ev, false
	}
	for {
		s.space()
		if s.take('}') {
			return ev, s.i == len(s.b)
		}
		if !s.take(',') {
			return ev, false
		}
		s.space()
		name, ok := s.name()
		if !ok {
			return ev, false
		}
		s.space()
		if !s.take(':') {
			return ev, false
		}
		s.space()
		switch string(name) {
		case "type":
			return ev, false
		case "timestamp":
			if ev.timed {
				return ev, false
			}
			if ev.ms, ok = s.integer(); !ok {
				return ev, false
			}
			ev.timed = true
			continue
		case "metadata":
			if s.peek() != '{' {
				return ev, false
			}
		case "subagentRunId":
			if s.peek() != '"' {
				return ev, false
			}
		}
		if !s.value() {
			return ev, false
		}
	}
}
