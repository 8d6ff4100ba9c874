package agui

import (
	"bytes"
	"errors"
	"github.com/agentwatch/agentwatch/internal/jsonwords"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeOptions tolerate what real producers write: duplicate member names
// (last wins, as in JavaScript) and invalid UTF-8 (replaced, not rejected).
var decodeOptions = json.JoinOptions(
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v, decodeOptions) }

func marshal(v any) ([]byte, error) { return json.Marshal(v, json.Deterministic(true)) }

// Decode turns one JSON value into an AG-UI event. It never fails: a value
// that is not an object becomes *model.Unreadable, an unknown type *Unknown,
// and a known type with a malformed field *Malformed. Input that only a
// lenient reader accepts (invalid UTF-8, a member given twice) is first
// normalised (see Normalize), so every decoded event holds strict JSON. An
// event nested deeper than MaxDepth is not decoded: it is Malformed (or
// Unreadable, when its type is not one agentwatch knows) with ErrTooDeep.
func Decode(raw []byte) model.Event {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	if len(raw) > MaxDepth { // nesting deeper takes more bytes than that
		if d := Depth(raw); d > MaxDepth {
			return refuseDeep(raw, d)
		}
	}
	ev, strictOK := decode(raw)
	if strictOK {
		return ev
	}
	if clean, ok := Normalize(raw); ok && !bytes.Equal(clean, raw) {
		ev, _ = decode(clean)
	}
	return ev
}

// decode decodes strictly; false means the bytes themselves were at fault
// or the event is malformed, and a normalised copy may decode better.
// Plain deltas take a fast path (decodeDelta); everything else, and any
// delta that is not plain, the general one.
func decode(raw []byte) (model.Event, bool) {
	if tb, ok := peekType(raw); ok {
		switch string(tb) {
		case TypeTextMessageContent, TypeReasoningMessageContent, TypeToolCallArgs:
			if ev, ok := decodeDelta(raw, string(tb)); ok {
				return ev, true
			}
		}
	}
	return decodeGeneral(raw)
}

// decodeGeneral decodes any event by reflection (see decode).
func decodeGeneral(raw []byte) (model.Event, bool) {
	var typ string
	var ctor constructor
	known := false
	// A second "type" member needs no check here: strict decoding rejects
	// the repeated name, and the normalised copy keeps the last value.
	tb, ok := peekType(raw)
	if ok {
		// Indexing with string(tb) does not allocate; known types reuse their name.
		if ctor, known = constructors[string(tb)]; known {
			typ = ctor.name
		} else {
			typ = string(tb)
		}
	} else {
		var probe struct {
			Type jsontext.Value `json:"type"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}, false
		}
		if probe.Type.Kind() != '"' {
			if len(probe.Type) == 0 {
				return &model.Unreadable{Reason: "event has no \"type\" member", Offset: -1}, true
			}
			return &model.Unreadable{Reason: "event \"type\" is not a string", Offset: -1}, true
		}
		_ = json.Unmarshal(probe.Type, &typ)
		if typ == "" {
			return &model.Unreadable{Reason: "event \"type\" is empty", Offset: -1}, true
		}
		ctor, known = constructors[typ]
	}
	if !known {
		u := &Unknown{}
		if err := json.Unmarshal(raw, u); err != nil {
			if !jsontext.Value(raw).IsValid(decodeOptions) {
				return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}, false
			}
			if !jsontext.Value(raw).IsValid() {
				return &Unknown{Base: Base{Type: typ}}, false // normalise and retry
			}
			// Only the common fields are read; when even those are off, keep the type.
			u = &Unknown{}
		}
		u.Type = typ
		return u, true
	}
	ev := ctor.make()
	if err := json.Unmarshal(raw, ev); err != nil {
		if !jsontext.Value(raw).IsValid(decodeOptions) {
			return &model.Unreadable{Reason: "not a JSON object: " + cleanErr(err), Offset: -1}, false
		}
		return malformed(typ, raw, cleanErr(err)), false
	}
	if msg := checkRequired(ev, raw); msg != "" {
		return malformed(typ, raw, msg), true
	}
	return ev, true
}

func malformed(typ string, raw []byte, msg string) *Malformed {
	m := &Malformed{Err: errors.New(msg)}
	// The common fields are still useful (timestamp for pacing, subagent tag).
	_ = unmarshal(raw, &struct {
		*Base
	}{&m.Base})
	m.Type = typ
	return m
}

// cleanErr says what the JSON library found wrong in words a user reads
// (where, what was there, what was wanted), without its Go types.
func cleanErr(err error) string { return jsonwords.Describe(err) }

// Time returns the event's own timestamp (ms since the Unix epoch), and false
// when the event carries none.
func Time(ev model.Event) (time.Time, bool) {
	e, ok := ev.(Event)
	if !ok {
		return time.Time{}, false
	}
	ts := e.Common().Timestamp
	if !ts.Valid {
		return time.Time{}, false
	}
	return ts.Time(), true
}

// peekType reads `"type":"X"` when it is the first member and X has no
// escapes, which is how every producer we know writes events. Anything
// else falls back to a full parse.
func peekType(raw []byte) ([]byte, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if !bytes.HasPrefix(raw[i:], []byte(`"type"`)) {
		return nil, false
	}
	i = skipSpace(raw, i+6)
	if i >= len(raw) || raw[i] != ':' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if i >= len(raw) || raw[i] != '"' {
		return nil, false
	}
	start := i + 1
	for j := start; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			if j == start {
				return nil, false
			}
			return raw[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

var constructors = map[string]constructor{
	TypeRunStarted:                 {TypeRunStarted, func() Event { return &RunStarted{} }},
	TypeRunFinished:                {TypeRunFinished, func() Event { return &RunFinished{} }},
	TypeRunError:                   {TypeRunError, func() Event { return &RunError{} }},
	TypeStepStarted:                {TypeStepStarted, func() Event { return &StepStarted{} }},
	TypeStepFinished:               {TypeStepFinished, func() Event { return &StepFinished{} }},
	TypeTextMessageStart:           {TypeTextMessageStart, func() Event { return &TextMessageStart{} }},
	TypeTextMessageContent:         {TypeTextMessageContent, func() Event { return &TextMessageContent{} }},
	TypeTextMessageEnd:             {TypeTextMessageEnd, func() Event { return &TextMessageEnd{} }},
	TypeTextMessageChunk:           {TypeTextMessageChunk, func() Event { return &TextMessageChunk{} }},
	TypeToolCallStart:              {TypeToolCallStart, func() Event { return &ToolCallStart{} }},
	TypeToolCallArgs:               {TypeToolCallArgs, func() Event { return &ToolCallArgs{} }},
	TypeToolCallEnd:                {TypeToolCallEnd, func() Event { return &ToolCallEnd{} }},
	TypeToolCallChunk:              {TypeToolCallChunk, func() Event { return &ToolCallChunk{} }},
	TypeToolCallResult:             {TypeToolCallResult, func() Event { return &ToolCallResult{} }},
	TypeStateSnapshot:              {TypeStateSnapshot, func() Event { return &StateSnapshot{} }},
	TypeStateDelta:                 {TypeStateDelta, func() Event { return &StateDelta{} }},
	TypeMessagesSnapshot:           {TypeMessagesSnapshot, func() Event { return &MessagesSnapshot{} }},
	TypeActivitySnapshot:           {TypeActivitySnapshot, func() Event { return &ActivitySnapshot{} }},
	TypeActivityDelta:              {TypeActivityDelta, func() Event { return &ActivityDelta{} }},
	TypeRaw:                        {TypeRaw, func() Event { return &Raw{} }},
	TypeCustom:                     {TypeCustom, func() Event { return &Custom{} }},
	TypeReasoningStart:             {TypeReasoningStart, func() Event { return &ReasoningStart{} }},
	TypeReasoningMessageStart:      {TypeReasoningMessageStart, func() Event { return &ReasoningMessageStart{} }},
	TypeReasoningMessageContent:    {TypeReasoningMessageContent, func() Event { return &ReasoningMessageContent{} }},
	TypeReasoningMessageEnd:        {TypeReasoningMessageEnd, func() Event { return &ReasoningMessageEnd{} }},
	TypeReasoningMessageChunk:      {TypeReasoningMessageChunk, func() Event { return &ReasoningMessageChunk{} }},
	TypeReasoningEnd:               {TypeReasoningEnd, func() Event { return &ReasoningEnd{} }},
	TypeReasoningEncryptedValue:    {TypeReasoningEncryptedValue, func() Event { return &ReasoningEncryptedValue{} }},
	TypeSubagentStarted:            {TypeSubagentStarted, func() Event { return &SubagentStarted{} }},
	TypeSubagentFinished:           {TypeSubagentFinished, func() Event { return &SubagentFinished{} }},
	TypeSubagentError:              {TypeSubagentError, func() Event { return &SubagentError{} }},
	TypeThinkingStart:              {TypeThinkingStart, func() Event { return &ThinkingStart{} }},
	TypeThinkingEnd:                {TypeThinkingEnd, func() Event { return &ThinkingEnd{} }},
	TypeThinkingTextMessageStart:   {TypeThinkingTextMessageStart, func() Event { return &ThinkingTextMessageStart{} }},
	TypeThinkingTextMessageContent: {TypeThinkingTextMessageContent, func() Event { return &ThinkingTextMessageContent{} }},
	TypeThinkingTextMessageEnd:     {TypeThinkingTextMessageEnd, func() Event { return &ThinkingTextMessageEnd{} }},
}

// constructor makes the empty event of one type.
type constructor struct {
	name string
	make func() Event
}

// Known reports whether typ is an AG-UI 1.0 or legacy event type.
func Known(typ string) bool { _, ok := constructors[typ]; return ok }

// UnmarshalValue decodes a JSON value with the same tolerance as Decode.
func UnmarshalValue(b []byte, v any) error { return unmarshal(b, v) }

// MarshalValue encodes v deterministically (object keys sorted).
func MarshalValue(v any) ([]byte, error) { return marshal(v) }
