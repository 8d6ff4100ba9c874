package agui_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// TestMessageWire: a message decoded and encoded again has exactly the
// fields it came with, present-but-empty ones included, less the fields its
// role (or its part's or source's kind) does not define, which the reference
// client strips; a null optional field reads as absent.
func TestMessageWire(t *testing.T) {
	for _, tt := range messageWireCases {
		t.Run(tt.name, func(t *testing.T) {
			var m agui.Message
			if err := agui.UnmarshalValue([]byte(tt.in), &m); err != nil {
				t.Fatalf("decode: %v", err)
			}
			got, err := json.Marshal(m)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("decode ∘ encode\n  in:   %s\n  got:  %s\n  want: %s", tt.in, got, tt.want)
			}
			var again agui.Message
			if err := agui.UnmarshalValue(got, &again); err != nil {
				t.Fatalf("decode again: %v", err)
			}
			if twice, _ := json.Marshal(again); string(twice) != string(got) {
				t.Errorf("not a fixed point:\n  once:  %s\n  twice: %s", got, twice)
			}
		})
	}
}

// messageWireCases are messages as producers write them, and what decoding
// and encoding one again must give.
var messageWireCases = []struct {
	name, in, want string
}{
	{"user, all empty",
		`{"id":"u","role":"user","content":"","name":"","encryptedValue":"","metadata":{}}`,
		`{"id":"u","role":"user","content":"","name":"","encryptedValue":"","metadata":{}}`},
	{"user, empty parts", `{"id":"u","role":"user","content":[]}`, `{"id":"u","role":"user","content":[]}`},
	{"assistant, empty tool calls",
		`{"id":"a","role":"assistant","content":"","toolCalls":[],"name":"","encryptedValue":""}`,
		`{"id":"a","role":"assistant","content":"","name":"","toolCalls":[],"encryptedValue":""}`},
	{"assistant, nothing", `{"id":"a","role":"assistant"}`, `{"id":"a","role":"assistant"}`},
	{"assistant, empty tool call",
		`{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"","arguments":""},"encryptedValue":"","metadata":{}}]}`,
		`{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"","arguments":""},"encryptedValue":"","metadata":{}}]}`},
	{"system", `{"id":"s","role":"system","content":"","name":""}`, `{"id":"s","role":"system","content":"","name":""}`},
	{"developer", `{"id":"d","role":"developer","content":"","encryptedValue":""}`, `{"id":"d","role":"developer","content":"","encryptedValue":""}`},
	{"tool",
		`{"id":"t","role":"tool","content":"","toolCallId":"","error":"","encryptedValue":""}`,
		`{"id":"t","role":"tool","content":"","toolCallId":"","error":"","encryptedValue":""}`},
	{"reasoning", `{"id":"r","role":"reasoning","content":"","encryptedValue":""}`, `{"id":"r","role":"reasoning","content":"","encryptedValue":""}`},
	{"activity",
		`{"id":"a","role":"activity","activityType":"","content":{},"metadata":{"k":null}}`,
		`{"id":"a","role":"activity","content":{},"activityType":"","metadata":{"k":null}}`},
	{"nulls read as absent",
		`{"id":"a","role":"assistant","content":null,"name":null,"toolCalls":null,"encryptedValue":null,"metadata":null}`,
		`{"id":"a","role":"assistant"}`},
	{"fields of other roles are dropped",
		`{"id":"u","role":"user","content":"hi","toolCallId":"x","toolCalls":[],"error":"","activityType":"","extra":1}`,
		`{"id":"u","role":"user","content":"hi"}`},
	{"tool has no name", `{"id":"t","role":"tool","content":"","toolCallId":"c","name":"n"}`, `{"id":"t","role":"tool","content":"","toolCallId":"c"}`},
	{"activity has no name or encryptedValue",
		`{"id":"a","role":"activity","activityType":"p","content":{},"name":"n","encryptedValue":""}`,
		`{"id":"a","role":"activity","content":{},"activityType":"p"}`},
	{"unknown role keeps everything",
		`{"id":"x","role":"wizard","content":"","name":"","toolCallId":""}`,
		`{"id":"x","role":"wizard","content":"","name":"","toolCallId":""}`},
	{"parts, all empty",
		`{"id":"u","role":"user","content":[{"type":"text","text":"","id":"","metadata":{}},` +
			`{"type":"image","id":"","source":{"type":"data","value":"","mimeType":""},"metadata":{}},` +
			`{"type":"audio","source":{"type":"url","value":"","mimeType":""}},` +
			`{"type":"video","source":{"type":"file","value":"","provider":"","mimeType":""}},` +
			`{"type":"document","source":{"type":"url","value":""}}]}`,
		`{"id":"u","role":"user","content":[{"type":"text","text":"","id":"","metadata":{}},` +
			`{"type":"image","id":"","source":{"type":"data","value":"","mimeType":""},"metadata":{}},` +
			`{"type":"audio","source":{"type":"url","value":"","mimeType":""}},` +
			`{"type":"video","source":{"type":"file","value":"","mimeType":"","provider":""}},` +
			`{"type":"document","source":{"type":"url","value":""}}]}`},
	{"parts, fields of other kinds dropped, null metadata absent",
		`{"id":"u","role":"user","content":[{"type":"text","text":"t","source":{"type":"url","value":"v"}},` +
			`{"type":"image","text":"","source":{"type":"data","value":"","mimeType":"m","provider":""},"metadata":null}]}`,
		`{"id":"u","role":"user","content":[{"type":"text","text":"t"},{"type":"image","source":{"type":"data","value":"","mimeType":"m"}}]}`},
	{"part with a null source", `{"id":"u","role":"user","content":[{"type":"image","source":null}]}`, `{"id":"u","role":"user","content":[{"type":"image"}]}`},
}

// TestMessageBuiltInGo: a message built in Go writes its non-empty fields,
// and an empty one only when a setter says it is present.
func TestMessageBuiltInGo(t *testing.T) {
	m := agui.Message{ID: "m", Role: agui.RoleAssistant, Content: agui.TextContent(""),
		ToolCalls: []agui.ToolCall{{ID: "c", Type: "function"}}}
	m.SetEncryptedValue("")
	m.ToolCalls[0].SetEncryptedValue("")
	m.SetName("bot")
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"id":"m","role":"assistant","content":"","name":"bot","toolCalls":[{"id":"c","type":"function","function":{"name":"","arguments":""},"encryptedValue":""}],"encryptedValue":""}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	m.SetEncryptedValue("x")
	if m.Empty.Has(agui.FieldEncryptedValue) {
		t.Error("a non-empty value left its field in Empty")
	}
}

// specMembers are the members AG-UI 1.0 defines for each message role (its
// Message union), written out here from the specification rather than taken
// from the decoder, so FuzzMessage checks the decoder against it.
var specMembers = map[string][]string{
	"developer": {"id", "role", "content", "name", "encryptedValue", "metadata", "subagentRunId"},
	"system":    {"id", "role", "content", "name", "encryptedValue", "metadata", "subagentRunId"},
	"assistant": {"id", "role", "content", "name", "toolCalls", "encryptedValue", "metadata", "subagentRunId"},
	"user":      {"id", "role", "content", "name", "encryptedValue", "metadata", "subagentRunId"},
	"tool":      {"id", "role", "content", "toolCallId", "error", "encryptedValue", "metadata", "subagentRunId"},
	"activity":  {"id", "role", "activityType", "content", "metadata", "subagentRunId"},
	"reasoning": {"id", "role", "content", "encryptedValue", "metadata", "subagentRunId"},
}

// FuzzMessage checks the message decoder: it never panics; a message it
// accepts keeps every non-null member its role defines, empty or not, and
// no member its role does not define; and encoding is a fixed point after
// one round trip.
func FuzzMessage(f *testing.F) {
	for _, c := range messageWireCases {
		f.Add([]byte(c.in))
	}
	f.Add([]byte(`{"id":"t","role":"tool","content":[],"toolCallId":"","error":"","subagentRunId":null}`))
	f.Add([]byte(`{"id":"x","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"","arguments":""},"encryptedValue":""}],"name":"","name":"n"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Messages reach the decoder inside events, which Decode has made
		// strict JSON first (see Normalize).
		if clean, ok := agui.Normalize(data); ok {
			data = clean
		}
		var m agui.Message
		if err := agui.UnmarshalValue(data, &m); err != nil {
			return
		}
		opts := json.Deterministic(true)
		enc, err := json.Marshal(m, opts)
		if err != nil {
			t.Fatalf("message %s decodes but does not encode: %v", data, err)
		}
		in, out := map[string]bool{}, map[string]bool{}
		for _, mb := range topMembers(data) {
			in[mb.name] = mb.value.Kind() != 'n'
		}
		for _, mb := range topMembers(enc) {
			out[mb.name] = true
		}
		if defined, ok := specMembers[string(m.Role)]; ok {
			for name, set := range in {
				if set && slices.Contains(defined, name) && !out[name] {
					t.Fatalf("a %s message lost its %q\n  input: %s\nencoded: %s", m.Role, name, data, enc)
				}
			}
			for name := range out {
				if !slices.Contains(defined, name) {
					t.Fatalf("a %s message has a %q, which its role does not define\n  input: %s\nencoded: %s", m.Role, name, data, enc)
				}
			}
		}
		var again agui.Message
		if err := agui.UnmarshalValue(enc, &again); err != nil {
			t.Fatalf("%s (from %s) does not decode: %v", enc, data, err)
		}
		enc2, err := json.Marshal(again, opts)
		if err != nil {
			t.Fatalf("re-decoded message does not encode: %v", err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("message encoding is not stable:\n first: %s\nsecond: %s", enc, enc2)
		}
	})
}
