package fold_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// A saved conversation (a MESSAGES_SNAPSHOT, no tool-call events) gives
// steps as complete as a streamed run: category and location from the call's
// metadata, the tool message's text, exit code, screenshots, and a failed
// status from the tool message's error.
func TestSnapshotToolMessagesSettleSteps(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfake"))
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"MESSAGES_SNAPSHOT","messages":[`+
			`{"id":"u","role":"user","content":"fix it"},`+
			`{"id":"a","role":"assistant","toolCalls":[`+
			`{"id":"sh","type":"function","function":{"name":"bash","arguments":"{\"command\":\"go test\"}"},"metadata":{"category":"execute","location":"go test"}},`+
			`{"id":"ed","type":"function","function":{"name":"edit","arguments":"{}"},"metadata":{"category":"edit","location":"a.go"}},`+
			`{"id":"gone","type":"function","function":{"name":"edit","arguments":"{}"}},`+
			`{"id":"shot","type":"function","function":{"name":"browser_screenshot","arguments":"{}"}}]},`+
			`{"id":"t1","role":"tool","toolCallId":"sh","content":"FAIL","metadata":{"exitCode":1}},`+
			`{"id":"t2","role":"tool","toolCallId":"ed","content":"old_string not found","error":"old_string not found"},`+
			`{"id":"t3","role":"tool","toolCallId":"gone","content":"","error":"file vanished"},`+
			`{"id":"t4","role":"tool","toolCallId":"shot","content":[{"type":"text","text":"captured"},{"type":"image","source":{"type":"data","mimeType":"image/png","value":"`+png+`"}}]}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
	)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	s := f.Steps()
	if len(s) != 4 {
		t.Fatalf("%d steps, want 4", len(s))
	}
	if s[0].Label() != "Command failed (exit 1) · go test" || s[0].Status != model.StatusFailed || s[0].ExitCode == nil || *s[0].ExitCode != 1 || s[0].Result != "FAIL" {
		t.Errorf("bash: %s %s %+v", s[0].Label(), s[0].Status, s[0])
	}
	if s[1].Status != model.StatusFailed || s[1].Result != "old_string not found" || s[1].Label() != "Edit failed · a.go" {
		t.Errorf("errored edit: %s %q %s", s[1].Status, s[1].Result, s[1].Label())
	}
	if s[2].Status != model.StatusFailed || s[2].Result != "file vanished" {
		t.Errorf("an error with no content shows the error: %s %q", s[2].Status, s[2].Result)
	}
	if s[3].Status != model.StatusCompleted || s[3].Result != "captured" || len(s[3].Screenshots) != 1 ||
		!strings.HasPrefix(string(s[3].Screenshots[0].Data), "\x89PNG") {
		t.Errorf("screenshot: %s %q %+v", s[3].Status, s[3].Result, s[3].Screenshots)
	}
	// The transcript rows of the steps show the same ending.
	want := map[string]model.Status{"sh": model.StatusFailed, "ed": model.StatusFailed, "gone": model.StatusFailed, "shot": model.StatusCompleted}
	for _, it := range f.Items() {
		if it.Kind != model.ItemToolCall {
			continue
		}
		if it.Status != want[it.ID] {
			t.Errorf("item %s is %s, want %s", it.ID, it.Status, want[it.ID])
		}
		delete(want, it.ID)
	}
	if len(want) != 0 {
		t.Errorf("no transcript rows for %v", want)
	}
	for _, st := range s {
		if st.DurationMS != 0 {
			t.Errorf("step %s has a duration from a snapshot: %d ms", st.ToolCallID, st.DurationMS)
		}
	}
}

// An error on a tool message whose call the fold has already settled (by a
// TOOL_CALL_RESULT) changes nothing: the first result stands.
func TestSnapshotErrorAfterResultKeepsResult(t *testing.T) {
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"sh"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"ok"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"sh","arguments":"{}"}}]},{"id":"m","role":"tool","toolCallId":"c","content":"","error":"late"}]}`,
	)
	if s := f.Steps()[0]; s.Status != model.StatusCompleted || s.Result != "ok" {
		t.Errorf("step: %s %q", s.Status, s.Result)
	}
}
