package compact_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
)

// shape writes a compacted log one event a word: TYPE:id, the merged delta
// in brackets, a state snapshot with its value.
func shape(t *testing.T, recs []model.Record) string {
	t.Helper()
	short := map[string]string{
		"RUN_STARTED": "RS", "RUN_FINISHED": "RF", "RUN_ERROR": "RE",
		"TEXT_MESSAGE_START": "S", "TEXT_MESSAGE_CONTENT": "C", "TEXT_MESSAGE_END": "E",
		"TOOL_CALL_START": "TS", "TOOL_CALL_ARGS": "A", "TOOL_CALL_END": "TE", "TOOL_CALL_RESULT": "R",
		"REASONING_MESSAGE_START": "RMS", "REASONING_MESSAGE_CONTENT": "RMC", "REASONING_MESSAGE_END": "RME",
		"STATE_SNAPSHOT": "SNAP", "STATE_DELTA": "DELTA", "MESSAGES_SNAPSHOT": "MSNAP", "CUSTOM": "CUSTOM",
		"TEXT_MESSAGE_CHUNK": "CHUNK",
	}
	var words []string
	for _, r := range recs {
		var ev struct {
			Type       string `json:"type"`
			MessageID  string `json:"messageId"`
			ToolCallID string `json:"toolCallId"`
			Delta      any    `json:"delta"`
			Snapshot   any    `json:"snapshot"`
		}
		if err := json.Unmarshal(r.Raw, &ev); err != nil {
			t.Fatalf("event %s: %v", r.Raw, err)
		}
		w := short[ev.Type]
		if w == "" {
			w = ev.Type
		}
		if id := ev.MessageID + ev.ToolCallID; id != "" {
			w += ":" + id
		}
		switch ev.Type {
		case "TEXT_MESSAGE_CONTENT", "TOOL_CALL_ARGS":
			w += fmt.Sprintf("[%v]", ev.Delta)
		case "STATE_SNAPSHOT":
			b, _ := json.Marshal(ev.Snapshot, json.Deterministic(true))
			w += string(b)
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// TestFixedFaults: Fixed on the situations where the reference goes wrong,
// event by event, next to what the reference writes; Fixed's output keeps
// law 2 and the reference's does not.
func TestFixedFaults(t *testing.T) {
	tests := []struct {
		name      string
		log       string
		fixed     string
		reference string
	}{{
		name: "run errors with a tool call open (issue #2813)",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"a\""}
{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":":1}"}
{"type":"RUN_ERROR","message":"aborted"}
{"type":"RUN_STARTED","threadId":"t","runId":"r2"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}
{"type":"TEXT_MESSAGE_END","messageId":"m"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`,
		fixed:     `RS TS:c A:c[{"a":1}] RE RS S:m C:m[hi] E:m RF`,
		reference: `RS RE RS S:m C:m[hi] E:m RF TS:c A:c[{"a":1}]`,
	}, {
		name: "run finishes with a text message open",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}
{"type":"CUSTOM","name":"n","value":1}
{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}
{"type":"RUN_STARTED","threadId":"t","runId":"r2"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}
{"type":"TOOL_CALL_END","toolCallId":"c"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`,
		fixed:     `RS S:m C:m[a] CUSTOM RF RS TS:c TE:c RF`,
		reference: `RS RF RS TS:c TE:c RF S:m C:m[a] CUSTOM`,
	}, {
		name: "parallel tool calls end in reverse order",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_END","messageId":"m"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m"}
{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"g","parentMessageId":"m"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c2","delta":"{"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c2","delta":"}"}
{"type":"TOOL_CALL_END","toolCallId":"c2"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"1"}
{"type":"TOOL_CALL_RESULT","messageId":"r2","toolCallId":"c2","content":"2"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		fixed:     `RS S:m E:m TS:c1 A:c1[{}] TE:c1 TS:c2 A:c2[{}] TE:c2 R:r1c1 R:r2c2 RF`,
		reference: `RS S:m E:m TS:c2 A:c2[{}] TE:c2 TS:c1 A:c1[{}] TE:c1 R:r1c1 R:r2c2 RF`,
	}, {
		name: "a text message inside another",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a"}
{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"x"}
{"type":"TEXT_MESSAGE_END","messageId":"m2"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"b"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		fixed:     `RS S:m1 C:m1[ab] E:m1 S:m2 C:m2[x] E:m2 RF`,
		reference: `RS S:m2 C:m2[x] E:m2 S:m1 C:m1[ab] E:m1 RF`,
	}, {
		// The reasoning message may not move before the tool call that
		// started first (both create messages): Fixed cuts there.
		name: "reasoning interleaved with a text message and a tool call",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}
{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"b"}
{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"hm"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}
{"type":"TEXT_MESSAGE_END","messageId":"m"}
{"type":"REASONING_MESSAGE_END","messageId":"r"}
{"type":"TOOL_CALL_END","toolCallId":"c"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		fixed:     `RS S:m C:m[a] TS:c C:m[b] E:m RMS:r RMC:r A:c[{}] TE:c RME:r RF`,
		reference: `RS S:m C:m[ab] E:m RMS:r RMC:r TS:c A:c[{}] TE:c RME:r RF`,
	}, {
		// The snapshot may not move over the tool calls; the text after it
		// may not move before it.
		name: "messages snapshot in the middle of a message",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u0","role":"user","content":"hello"},{"id":"m1","role":"assistant","content":"A"}]}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"b"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		fixed:     `RS S:m1 C:m1[a] TS:c1 TE:c1 MSNAP C:m1[b] E:m1 RF`,
		reference: `RS TS:c1 TE:c1 S:m1 C:m1[ab] E:m1 MSNAP RF`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := readLog(t, []byte(tt.log))
			fixed, ref := compact.Fixed(in), compact.Reference(in)
			if got := shape(t, fixed); got != tt.fixed {
				t.Errorf("Fixed:\n got %s\nwant %s", got, tt.fixed)
			}
			if got := shape(t, ref); got != tt.reference {
				t.Errorf("Reference:\n got %s\nwant %s", got, tt.reference)
			}
			judge := equiv.Against(in)
			if err := judge(fixed); err != nil {
				t.Errorf("Fixed breaks law 2: %v", err)
			}
			if judge(ref) == nil {
				t.Errorf("the reference keeps law 2 here: not a fault")
			}
			res, err := compact.Compact(in, judge)
			if err != nil || res.Method != compact.MethodFixed {
				t.Errorf("Compact: method %s, error %v; want Fixed's output", res.Method, err)
			}
		})
	}
}

// TestFixedLikeReference: where nothing overlaps and no run ends mid-stream,
// Fixed writes what the reference writes: merged deltas, parked events after
// their stream, one state snapshot per run before its end, a state window
// without a snapshot passed through, metadata merged as the reference does.
func TestFixedLikeReference(t *testing.T) {
	tests := []struct {
		name, log, want string
	}{{
		name: "state collapses before the run's end",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"STATE_SNAPSHOT","snapshot":{"n":0}}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":1}]}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}
{"type":"CUSTOM","name":"n","value":1}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"b"}
{"type":"TEXT_MESSAGE_END","messageId":"m"}
{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2}]}
{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/missing/x","value":3}]}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		want: `RS S:m C:m[ab] E:m CUSTOM SNAP{"n":2} RF`,
	}, {
		name: "deltas without a snapshot pass through",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/b","value":2}]}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		want: `RS DELTA DELTA RF`,
	}, {
		name: "crossing text messages keep their order",
		log: `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"x"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"y"}
{"type":"TEXT_MESSAGE_END","messageId":"m2"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
		want: `RS S:m1 C:m1[a] E:m1 S:m2 C:m2[xy] E:m2 RF`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := readLog(t, []byte(tt.log))
			fixed, ref := compact.Fixed(in), compact.Reference(in)
			if got := shape(t, fixed); got != tt.want {
				t.Errorf("Fixed:\n got %s\nwant %s", got, tt.want)
			}
			if got, want := recordsJSON(t, fixed), recordsJSON(t, ref); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("Fixed differs from Reference: %s", firstDiff(want, got))
			}
			law2(t, in, fixed, "Fixed")
		})
	}
}

// TestMetadataMerge: the merged delta carries the deltas' metadata merged
// key by key, last write winning; timestamps and rawEvent are dropped; the
// START and END pass through exactly as read.
func TestMetadataMerge(t *testing.T) {
	log := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m", "role":"assistant","metadata":{"k":0},"extra":[1, 2]}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","timestamp":5,"rawEvent":{"x":1},"metadata":{"a":1,"b":1}}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"b","metadata":{"b":2}}
{"type":"TEXT_MESSAGE_END","messageId":"m","metadata":{"e":true}}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	in := readLog(t, []byte(log))
	for name, out := range map[string][]model.Record{"Fixed": compact.Fixed(in), "Reference": compact.Reference(in)} {
		if len(out) != 5 {
			t.Fatalf("%s: %d events, want 5", name, len(out))
		}
		if got, want := string(out[1].Raw), string(in[1].Raw); got != want {
			t.Errorf("%s: START not passed through: %s", name, got)
		}
		if got, want := string(out[3].Raw), string(in[4].Raw); got != want {
			t.Errorf("%s: END not passed through: %s", name, got)
		}
		if got, want := string(out[2].Raw), `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"ab","metadata":{"a":1,"b":2}}`; got != want {
			t.Errorf("%s: merged delta\n got %s\nwant %s", name, got, want)
		}
	}
}
