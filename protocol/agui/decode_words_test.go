package agui

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// TestMalformedSaysWhatInWords: a field of the wrong kind is reported by
// its name and the kinds involved, never with the decoder's Go types.
func TestMalformedSaysWhatInWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"TEXT_MESSAGE_START","messageId":5,"role":"assistant"}`, "messageId is a number, want a string"},
		{`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":{"a":1}}`, "toolCallName is an object, want a string"},
		{`{"type":"RUN_STARTED","threadId":"t","runId":["r"]}`, "runId is an array, want a string"},
	} {
		var msg string
		switch ev := Decode([]byte(tc.in)).(type) {
		case *Malformed:
			msg = ev.Err.Error()
		case *model.Unreadable:
			msg = ev.Reason
		default:
			t.Fatalf("%s decoded as %T", tc.in, ev)
		}
		if !strings.Contains(msg, tc.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "unmarshal") {
			t.Errorf("%s: %q, want %q and no Go type", tc.in, msg, tc.want)
		}
	}
}
