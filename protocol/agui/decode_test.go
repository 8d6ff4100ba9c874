package agui

import (
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

func TestDecodeTolerance(t *testing.T) {
	tests := []struct {
		name  string
		raw   string
		check func(t *testing.T, ev model.Event)
	}{
		{"float timestamp", `{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1760000000123.5}`, func(t *testing.T, ev model.Event) {
			at, ok := Time(ev)
			if !ok || at.UnixMilli() != 1760000000123 {
				t.Fatalf("time %v %v", at, ok)
			}
		}},
		{"string timestamp", `{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":"1760000000123"}`, func(t *testing.T, ev model.Event) {
			if at, ok := Time(ev); !ok || at.UnixMilli() != 1760000000123 {
				t.Fatalf("time %v %v", at, ok)
			}
		}},
		{"RFC 3339 timestamp", `{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":"2026-11-30T01:02:03.5Z"}`, func(t *testing.T, ev model.Event) {
			want := time.Date(2026, 11, 30, 1, 2, 3, 5e8, time.UTC)
			if at, ok := Time(ev); !ok || !at.Equal(want) {
				t.Fatalf("time %v %v", at, ok)
			}
		}},
		{"BOM", "\ufeff" + `{"type":"RUN_ERROR","message":"x"}`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*RunError); !ok {
				t.Fatalf("%T", ev)
			}
		}},
		{"nulls for optional fields", `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":null,"timestamp":null,"metadata":null}`, func(t *testing.T, ev model.Event) {
			e, ok := ev.(*ToolCallStart)
			if !ok || e.ParentMessageID != "" || e.Timestamp.Valid {
				t.Fatalf("%#v", ev)
			}
		}},
		{"null outcome means success", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":null}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*RunFinished); !ok || e.Outcome != nil {
				t.Fatalf("%#v", ev)
			}
		}},
		{"unknown fields kept", `{"type":"CUSTOM","name":"n","value":1,"vendorThing":{"a":1}}`, func(t *testing.T, ev model.Event) {
			e := ev.(*Custom)
			if !strings.Contains(string(e.Unknown), "vendorThing") {
				t.Fatalf("unknown = %s", e.Unknown)
			}
		}},
		{"unknown type", `{"type":"VENDOR_PING","x":1}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*Unknown); !ok || e.Type != "VENDOR_PING" {
				t.Fatalf("%#v", ev)
			}
		}},
		{"type not first", `{"delta":"x","messageId":"m","type":"TEXT_MESSAGE_CONTENT"}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*TextMessageContent); !ok || e.Delta != "x" {
				t.Fatalf("%#v", ev)
			}
		}},
		{"escaped type", `{"type":"TEXT_MESSAGE_\u0045ND","messageId":"m"}`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*TextMessageEnd); !ok {
				t.Fatalf("%#v", ev)
			}
		}},
		{"malformed field", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":5,"timestamp":7}`, func(t *testing.T, ev model.Event) {
			e, ok := ev.(*Malformed)
			if !ok || !strings.Contains(e.Err.Error(), "delta") || e.Type != TypeTextMessageContent {
				t.Fatalf("%#v", ev)
			}
			if at, ok := Time(ev); !ok || at.UnixMilli() != 7 {
				t.Fatal("malformed event lost its timestamp")
			}
		}},
		{"missing required field", `{"type":"TOOL_CALL_ARGS","toolCallId":"c"}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*Malformed); !ok || !strings.Contains(e.Err.Error(), `"delta"`) {
				t.Fatalf("%#v", ev)
			}
		}},
		{"empty delta is valid", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*TextMessageContent); !ok {
				t.Fatalf("%#v", ev)
			}
		}},
		{"multimodal tool result", `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"text","text":"ok"},{"type":"image","source":{"type":"data","value":"iVBORw0K","mimeType":"image/png"}},{"type":"document","source":{"type":"file","value":"file-1","provider":"openai"}}]}`, func(t *testing.T, ev model.Event) {
			e := ev.(*ToolCallResult)
			if !e.Content.IsParts || len(e.Content.Parts) != 3 || e.Content.Parts[1].Source.MimeType != "image/png" || e.Content.String() != "ok" {
				t.Fatalf("%#v", e.Content)
			}
		}},
		{"bad part source", `{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c","content":[{"type":"image","source":{"type":"ftp","value":"x"}}]}`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*Malformed); !ok {
				t.Fatalf("%#v", ev)
			}
		}},
		{"subagentRunId null is kept as null", `{"type":"STEP_STARTED","stepName":"s","subagentRunId":null}`, func(t *testing.T, ev model.Event) {
			if e := ev.(*StepStarted); e.SubagentRunID.State != Null {
				t.Fatalf("%#v", e.SubagentRunID)
			}
		}},
		{"legacy thinking", `{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hmm"}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*ThinkingTextMessageContent); !ok || e.Delta != "hmm" {
				t.Fatalf("%#v", ev)
			}
		}},
		{"not an object", `[1,2]`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*model.Unreadable); !ok {
				t.Fatalf("%#v", ev)
			}
		}},
		{"trailing garbage", `{"type":"RUN_ERROR","message":"x"},`, func(t *testing.T, ev model.Event) {
			if _, ok := ev.(*model.Unreadable); !ok {
				t.Fatalf("%#v", ev)
			}
		}},
		{"second type member wins", `{"type":"RUN_ERROR","message":"x","type":"STEP_STARTED","stepName":"s"}`, func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*StepStarted); !ok || e.StepName != "s" {
				t.Fatalf("%#v", ev)
			}
		}},
		{"invalid UTF-8 normalised", "{\"type\":\"RUN_ERROR\",\"message\":\"a\xffb\"}", func(t *testing.T, ev model.Event) {
			if e, ok := ev.(*RunError); !ok || e.Message != "a\uFFFDb" {
				t.Fatalf("%#v", ev)
			}
		}},
		{"no type", `{"messageId":"m"}`, func(t *testing.T, ev model.Event) {
			if u, ok := ev.(*model.Unreadable); !ok || !strings.Contains(u.Reason, "type") {
				t.Fatalf("%#v", ev)
			}
		}},
		{"duplicate names: last wins", `{"type":"RUN_ERROR","message":"a","message":"b"}`, func(t *testing.T, ev model.Event) {
			if e := ev.(*RunError); e.Message != "b" {
				t.Fatalf("%#v", e)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := Decode([]byte(tt.raw))
			if ev == nil {
				t.Fatal("nil event")
			}
			tt.check(t, ev)
		})
	}
}

// Every one of the 31 AG-UI 1.0 types (and the 5 legacy ones) decodes to its own struct.
func TestDecodeAllTypes(t *testing.T) {
	if n := len(constructors); n != 31+5 {
		t.Fatalf("%d event types known, want 36", n)
	}
	for typ := range constructors {
		ev := Decode([]byte(`{"type":"` + typ + `"}`))
		if ev.EventType() != typ {
			t.Errorf("%s decoded as %s", typ, ev.EventType())
		}
		if _, unknown := ev.(*Unknown); unknown {
			t.Errorf("%s decoded as unknown", typ)
		}
	}
}
