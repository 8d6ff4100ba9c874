package agui_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// decodeSeeds are events as producers write them and as they break them.
var decodeSeeds = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1760000000000,"input":{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"type":"url","value":"http://x/y.png"}}]}],"tools":[],"context":[],"state":{}}}`,
	`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"approve","subagentRunId":null}]},"usage":[{"inputTokens":9007199254740993}]}`,
	`{"type":"RUN_ERROR","message":"boom","code":"E"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","name":"bot"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a \"quoted\" \u0000 \ud83d\ude00 \ud800 ]}"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`,
	`{"type":"TEXT_MESSAGE_CHUNK","delta":"no id"}`,
	`{"type":"TEXT_MESSAGE_CHUNK","messageId":null,"role":null,"delta":null,"name":null}`,
	`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"read_file","parentMessageId":"m","delta":"{\"path\":"}`,
	`{"type":"TOOL_CALL_RESULT","messageId":"tm","toolCallId":"c","content":[{"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}}],"role":"tool"}`,
	`{"type":"TOOL_CALL_RESULT","messageId":"tm","toolCallId":"c","content":{"not":"allowed"}}`,
	`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/a/~2","value":1e999}]}`,
	`{"type":"STATE_DELTA","delta":{"op":"add"}}`,
	`{"type":"STATE_SNAPSHOT","snapshot":null}`,
	`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"activity","activityType":"plan","content":{"steps":[]}},{"id":"r","role":"reasoning","content":"x","encryptedValue":"e"}]}`,
	`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"plan","content":{},"replace":false}`,
	`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"plan","patch":[]}`,
	`{"type":"RAW","event":{"x":1},"source":"openai"}`,
	`{"type":"CUSTOM","name":"n","value":null}`,
	`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`,
	`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"zzz"}`,
	`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"helper","parentToolCallId":"c"}`,
	`{"type":"SUBAGENT_ERROR","subagentRunId":null,"message":null}`,
	`{"type":"THINKING_START","title":"pondering","timestamp":"2025-01-02T03:04:05.123456789Z"}`,
	`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm","timestamp":1.5e12}`,
	`{"type":"STEP_STARTED","stepName":"s","timestamp":"1760000000000.25"}`,
	`{"type":"STEP_FINISHED","stepName":"s","timestamp":true}`,
	"\ufeff{\"type\":\"RUN_ERROR\",\"message\":\"bom\"}",
	`{"runId":"r","type":"RUN_STARTED","threadId":"t"}`,
	`{"type":"RUN\u005fERROR","message":"escaped type"}`,
	`{"type":"NOT_A_TYPE","x":[1,2,{"y":null}]}`,
	`{"type":""}`,
	`{"type":7}`,
	`{}`,
	`[]`,
	`"RUN_STARTED"`,
	"{\"type\":\"RUN_ERROR\",\"message\":\"bad utf8 \xff\xfe\",\"rawEvent\":\"\xc3\x28\"}",
	`{"type":"RUN_ERROR","message":"dup","message":"last wins"}`,
	`{"type":"CUSTOM","name":"n","value":123456789012345678901234567890e-5}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":{"k":"v"},"subagentRunId":"s"}`,
	`{"type":"RUN_ERROR","message":"x"`,
}

// FuzzDecode checks that Decode never panics, never returns nil, and that a
// decoded known event survives encoding: re-encoding it and decoding the
// result gives the same Go type and the same event type.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	deep := strings.Repeat("[", 200) + "1" + strings.Repeat("]", 200)
	f.Add([]byte(`{"type":"RUN_ERROR","message":"x","extra":{"deep":` + deep + `},"Unknown":1}`))
	// Hostile: nested one level past what Decode reads, and a state patch
	// whose path is as deep.
	past := strings.Repeat(`{"a":`, agui.MaxDepth) + "0" + strings.Repeat("}", agui.MaxDepth)
	f.Add([]byte(`{"type":"STATE_SNAPSHOT","snapshot":` + past + `}`))
	f.Add([]byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"` + strings.Repeat("/a", agui.MaxDepth) + `","value":` + past + `}]}`))
	for _, ev := range sampleEvents(f) {
		f.Add(ev)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev := agui.Decode(data)
		if ev == nil {
			t.Fatal("Decode returned nil")
		}
		if _, unknown := ev.(*agui.Unknown); unknown && !jsontext.Value(bytes.TrimPrefix(data, []byte("\ufeff"))).IsValid(lenient) {
			// An unknown type used to be kept even when the rest was not
			// JSON; the contract says Unreadable. (A leading BOM is allowed.)
			knownIssue(t, "invalid-json-unknown", "%q is not JSON but decoded as *agui.Unknown %q", data, ev.EventType())
		}
		switch ev.(type) {
		case *agui.Unknown, *agui.Malformed, *model.Unreadable:
			return
		}
		e, ok := ev.(agui.Event)
		if !ok {
			t.Fatalf("Decode returned %T, which is not an agui.Event", ev)
		}
		if e.Common() == nil {
			t.Fatalf("%T has no common fields", ev)
		}
		members := topMembers(data)
		if types := distinctTypes(members); len(types) > 1 {
			// Decode picks the constructor by the first "type" member and the
			// JSON decoder lets the last one win in Base.Type.
			knownIssue(t, "duplicate-type", "%T decoded with EventType %q from types %q", ev, ev.EventType(), types)
			return
		}
		opts := json.Deterministic(true)
		enc, err := json.Marshal(ev, opts)
		if id := rawIssue(err); id != "" {
			knownIssue(t, id, "%T (type %q) decodes but does not encode: %v", ev, ev.EventType(), err)
			opts = json.JoinOptions(opts, lenient)
			enc, err = json.Marshal(ev, opts)
		}
		if err != nil {
			t.Fatalf("%T (type %q) does not encode: %v", ev, ev.EventType(), err)
		}
		again := agui.Decode(enc)
		if reflect.TypeOf(again) != reflect.TypeOf(ev) || again.EventType() != ev.EventType() {
			detail := ""
			if m, ok := again.(*agui.Malformed); ok {
				detail = ": " + m.Err.Error()
			}
			t.Fatalf("decode ∘ encode changed the event: %T %q → %T %q%s\nencoded: %s", ev, ev.EventType(), again, again.EventType(), detail, enc)
		}
		// Nothing the producer sent is lost: every top-level member with a
		// value is in the encoding, whether the event type defines it or not.
		got := map[string]bool{}
		for _, m := range topMembers(enc) {
			got[m.name] = true
		}
		var lost []string
		for _, m := range members {
			if !got[m.name] && !emptyJSON(m.value) {
				lost = append(lost, m.name)
			}
		}
		if len(lost) > 0 {
			t.Fatalf("%T lost members %q in a round trip\n  input: %s\nencoded: %s", ev, lost, data, enc)
		}
		// Encoding is a fixed point after one round: nothing more is lost.
		enc2, err := json.Marshal(again, opts)
		if err != nil {
			t.Fatalf("re-decoded %T does not encode: %v", again, err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable across a round trip:\n first: %s\nsecond: %s", enc, enc2)
		}
	})
}

// knownIssue fails on a class of bug the fuzzers found and that is fixed
// now; id names the class (and its corpus entries).
func knownIssue(t *testing.T, id, format string, args ...any) {
	t.Helper()
	t.Fatalf("regression "+id+": "+format, args...)
}

// lenient encodes what Decode tolerates.
var lenient = json.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

// rawIssue classifies an encoding error caused by a raw member (rawEvent,
// unknown members, snapshots, values…) that Decode kept verbatim although it
// is not strict JSON: Decode tolerates invalid UTF-8 and duplicate member
// names, strict encoding refuses both.
func rawIssue(err error) string {
	switch {
	case err == nil:
		return ""
	case strings.Contains(err.Error(), "invalid UTF-8"), strings.Contains(err.Error(), "invalid surrogate pair"):
		return "raw-invalid-utf8"
	case strings.Contains(err.Error(), "duplicate object member name"):
		return "raw-duplicate-names"
	}
	return ""
}

// FuzzTimestamp checks the tolerant timestamp decoder: no panic, a valid
// timestamp is finite and survives an encode/decode round trip exactly.
func FuzzTimestamp(f *testing.F) {
	for _, s := range []string{`1760000000000`, `1.5e12`, `-1`, `0`, `-0`, `null`, `"1760000000000.25"`,
		`"2025-01-02T03:04:05.123456789Z"`, `"9999-12-31T23:59:59Z"`, `"NaN"`, `"Inf"`, `"-Infinity"`, `1e400`,
		`9007199254740993`, `1e308`, `"0x1p-2"`, `true`, `{}`, `[]`, `"`, ``, `1 2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ts agui.Timestamp
		if err := agui.UnmarshalValue(data, &ts); err != nil {
			return
		}
		if !ts.Valid {
			if ts.Millis != 0 {
				t.Fatalf("invalid timestamp with millis %v", ts.Millis)
			}
			return
		}
		if math.IsInf(ts.Millis, 0) || math.IsNaN(ts.Millis) {
			t.Fatalf("%s decoded to non-finite %v", data, ts.Millis)
		}
		_ = ts.Time()
		enc, err := json.Marshal(ts)
		if err != nil {
			t.Fatalf("timestamp %v does not encode: %v", ts.Millis, err)
		}
		var back agui.Timestamp
		if err := agui.UnmarshalValue(enc, &back); err != nil {
			t.Fatalf("%s (from %s) does not decode: %v", enc, data, err)
		}
		if back != ts {
			t.Fatalf("round trip changed the timestamp: %v → %s → %v", ts.Millis, enc, back.Millis)
		}
	})
}

// FuzzContent checks the message content decoder: no panic, and a present
// content encodes to a fixed point after one round trip.
func FuzzContent(f *testing.F) {
	for _, s := range []string{`"text"`, `null`, `[]`, `[{"type":"text","text":"a"},{"type":"image","source":{"type":"data","value":"AA=="}}]`,
		`{"a":[1,{"b":null}]}`, `[{"type":"text","metadata":{"x":1},"id":"p"}]`, `[null]`, `[1]`, `7`, `true`,
		"\"\xff\"", `"\ud800"`, `{ "spaced" : [ 1 , 2 ] }`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c agui.Content
		if err := agui.UnmarshalValue(data, &c); err != nil || !c.Present {
			return
		}
		_ = c.String()
		opts := json.Deterministic(true)
		enc, err := json.Marshal(c, opts)
		if id := rawIssue(err); id != "" {
			knownIssue(t, id, "content %q decodes but does not encode: %v", data, err)
			opts = json.JoinOptions(opts, lenient)
			enc, err = json.Marshal(c, opts)
		}
		if err != nil {
			t.Fatalf("content %s does not encode: %v", data, err)
		}
		var back agui.Content
		if err := agui.UnmarshalValue(enc, &back); err != nil {
			t.Fatalf("%s (from %s) does not decode: %v", enc, data, err)
		}
		if back.IsParts != c.IsParts || (back.Object == nil) != (c.Object == nil) || !back.Present {
			t.Fatalf("round trip changed the content's shape: %s → %s", data, enc)
		}
		enc2, err := json.Marshal(back, opts)
		if err != nil {
			t.Fatalf("re-decoded content does not encode: %v", err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("content encoding is not stable:\n first: %s\nsecond: %s", enc, enc2)
		}
	})
}

type member struct {
	name  string
	value jsontext.Value
}

// topMembers lists the members of a JSON object in order, duplicates
// included, as tolerantly as Decode reads them (nil if b is not an object).
func topMembers(b []byte) []member {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	d := jsontext.NewDecoder(bytes.NewReader(b), lenient)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	var out []member
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return out
		}
		name := tok.String() // before the next read voids tok
		v, err := d.ReadValue()
		if err != nil {
			return out
		}
		out = append(out, member{name, v.Clone()})
	}
	return out
}

// distinctTypes returns the different values of the "type" members.
func distinctTypes(ms []member) []string {
	var out []string
	for _, m := range ms {
		if m.name != "type" {
			continue
		}
		var s string
		if agui.UnmarshalValue(m.value, &s) == nil && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// emptyJSON reports a value whose absence means the same (null, "", [], {}),
// which omitempty fields leave out.
func emptyJSON(v jsontext.Value) bool {
	c := v.Clone()
	if err := c.Compact(); err != nil {
		return false
	}
	switch string(c) {
	case "null", `""`, "[]", "{}":
		return true
	}
	return false
}

// sampleEvents returns each event of the peer samples as its own JSON value,
// or nothing when the samples are not on this machine (the checked-in corpus
// in testdata/fuzz covers CI).
func sampleEvents(tb testing.TB) [][]byte {
	dirs := []string{"../../testdata/peer/samples"}
	var out [][]byte
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			out = append(out, splitEvents(b)...)
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}

// splitEvents finds the events in a sample: a JSON array, an object of named
// arrays, JSON lines or SSE `data:` lines.
func splitEvents(b []byte) [][]byte {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var arr []jsontext.Value
	if json.Unmarshal(b, &arr) == nil {
		return clone(arr)
	}
	var named map[string][]jsontext.Value
	if json.Unmarshal(b, &named) == nil {
		var out [][]byte
		for _, arr := range named {
			out = append(out, clone(arr)...)
		}
		return out
	}
	var out [][]byte
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "data:"))
		if line != "" {
			out = append(out, []byte(line))
		}
	}
	return out
}

func clone(vs []jsontext.Value) [][]byte {
	out := make([][]byte, len(vs))
	for i, v := range vs {
		out[i] = bytes.Clone(v)
	}
	return out
}
