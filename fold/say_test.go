package fold

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/sources"
)

// TestProblemIDsAreCleanedBeforeFormatting: an id that ends in an
// unterminated escape sequence must not swallow the words after it.
func TestProblemIDsAreCleanedBeforeFormatting(t *testing.T) {
	log := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TOOL_CALL_START","toolCallId":"c\u001b[","toolCallName":"x"}
{"type":"TOOL_CALL_START","toolCallId":"c\u001b[","toolCallName":"x"}
{"type":"TEXT_MESSAGE_END","messageId":"m\u001b]0;\u202e"}
`
	recs, err := sources.ReadAll(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	f := New(Options{})
	f.Apply(recs...)
	d := f.Diagnostics()
	if len(d) != 2 {
		t.Fatalf("diagnostics %+v", d)
	}
	for i, want := range []string{`A tool call with ID 'c\u001b[' is already in progress`, `No active text message found with ID 'm\u001b]0;\u202e'`} {
		if !strings.Contains(d[i].Message, want) {
			t.Errorf("%q, want it to contain %q", d[i].Message, want)
		}
		if strings.ContainsAny(d[i].Message, "\x1b\u202e") {
			t.Errorf("%q holds a raw control", d[i].Message)
		}
	}
}
