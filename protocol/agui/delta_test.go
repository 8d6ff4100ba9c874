package agui

import (
	"reflect"
	"testing"
)

var deltaSeeds = []string{
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hello"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a \"quoted\"\nline\tand \\ slash \/","timestamp":1760000000123}`,
	` { "delta" : "" , "messageId":"m","type" : "REASONING_MESSAGE_CONTENT" } `,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"path\":\"a.go\"}","timestamp":-5}`,
	`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"é ü 日本語 🚀"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\u00e9"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","delta":"y"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":1.5}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":"2026-01-01T00:00:00Z"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","timestamp":0123}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","subagentRunId":"s"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","extra":[1,2]}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":null,"delta":"x"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x"} trailing`,
	"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"bad \xff utf8\"}",
	"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ctl \x01\"}",
	`{"type":"TOOL_CALL_ARGS","messageId":"m1","delta":"x"}`,
}

// The fast path decodes plain deltas exactly as the general decoder does,
// and leaves to it every delta that is not plain.
func TestDeltaFastPath(t *testing.T) {
	fast := 0
	for _, s := range deltaSeeds {
		typ, _ := peekType([]byte(s))
		ev, ok := decodeDelta([]byte(s), string(typ))
		want, _ := decodeGeneral([]byte(s))
		if ok {
			fast++
			if !reflect.DeepEqual(ev, want) {
				t.Errorf("%s:\n fast    %#v\n general %#v", s, ev, want)
			}
		}
	}
	// The plain ones whose type comes first (the third puts it last, so
	// decode never tries the fast path on it).
	if fast != 4 {
		t.Errorf("%d seeds took the fast path, want the 4 plain ones", fast)
	}
}

// FuzzDeltaFastPath holds the fast path to the general decoder on any
// input it accepts.
func FuzzDeltaFastPath(f *testing.F) {
	for _, s := range deltaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, typ := range []string{TypeTextMessageContent, TypeReasoningMessageContent, TypeToolCallArgs} {
			ev, ok := decodeDelta(raw, typ)
			if !ok {
				continue
			}
			want, strict := decodeGeneral(raw)
			if !strict || !reflect.DeepEqual(ev, want) {
				t.Fatalf("%q as %s:\n fast    %#v\n general %#v (strict %v)", raw, typ, ev, want, strict)
			}
		}
	})
}
