package sources

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// messagesDir holds the messages-only fixtures.
var messagesDir = filepath.Join("..", "testdata", "messages")

func readMessagesFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(messagesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// detectOK runs DetectMessages on a fixture and fails unless it is a
// messages file of the format want.
func detectOK(t *testing.T, name string, want MessagesFormat) []model.Record {
	t.Helper()
	recs, format, ok, err := DetectMessages(readMessagesFixture(t, name))
	if err != nil || !ok || format != want {
		t.Fatalf("%s: format %q, ok %v, err %v; want %q", name, format, ok, err, want)
	}
	for i, rec := range recs {
		if rec.Seq != uint64(i+1) || rec.Proto != model.ProtoAGUI || rec.Event == nil || len(rec.Raw) == 0 {
			t.Fatalf("%s: record %d is %+v", name, i, rec)
		}
	}
	return recs
}

// snapshotOf returns the messages of the only MESSAGES_SNAPSHOT in recs.
func snapshotOf(t *testing.T, recs []model.Record) []agui.Message {
	t.Helper()
	var snap *agui.MessagesSnapshot
	for _, rec := range recs {
		if s, ok := rec.Event.(*agui.MessagesSnapshot); ok {
			if snap != nil {
				t.Fatal("two snapshots")
			}
			snap = s
		}
	}
	if snap == nil {
		t.Fatal("no MESSAGES_SNAPSHOT")
	}
	return snap.Messages
}

// foldReview folds records with the fixtures' tool-kinds mapping and fails
// on an Apply error.
func foldReview(t *testing.T, recs []model.Record) *fold.Fold {
	t.Helper()
	kinds, err := fold.ParseToolKinds(readMessagesFixture(t, "tool-kinds.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := fold.New(fold.Options{ToolKinds: kinds})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	return f
}

func messageByID(msgs []agui.Message, id string) *agui.Message {
	for i := range msgs {
		if msgs[i].ID == id {
			return &msgs[i]
		}
	}
	return nil
}

func TestDetectMessagesAISDK(t *testing.T) {
	recs := detectOK(t, "aisdk-coding-agent.json", MessagesAISDK)
	if len(recs) != 3 {
		t.Fatalf("%d records, want RUN_STARTED, MESSAGES_SNAPSHOT, RUN_FINISHED", len(recs))
	}
	start, _ := recs[0].Event.(*agui.RunStarted)
	finish, _ := recs[2].Event.(*agui.RunFinished)
	if start == nil || finish == nil || start.ThreadID != "ui-messages" || finish.RunID != start.RunID {
		t.Fatalf("records %T %T", recs[0].Event, recs[2].Event)
	}
	if finish.Outcome == nil || !reflect.DeepEqual(finish.Outcome.PendingToolCallIDs, []string{"call_bash_3"}) {
		t.Errorf("the call saved without output is not pending: %+v", finish.Outcome)
	}
	for _, rec := range recs {
		if !rec.At.IsZero() {
			t.Errorf("record %d has a time: %v", rec.Seq, rec.At)
		}
	}

	msgs := snapshotOf(t, recs)
	// One AG-UI message per model step, each step's tool results after it.
	var order []string
	for _, m := range msgs {
		order = append(order, string(m.Role)+" "+m.ID)
	}
	want := []string{
		"user msg_u1",
		"reasoning msg_a1", "assistant msg_a1/2", "tool msg_a1/3/result", "tool msg_a1/4/result",
		"reasoning msg_a1/6", "assistant msg_a1/7", "tool msg_a1/7/result",
		"assistant msg_a1/9", "tool msg_a1/9/result", "tool msg_a1/10/result",
		"assistant msg_a1/12", "tool msg_a1/12/result", "tool msg_a1/13/result",
		"assistant msg_a1/15",
		"user msg_u2",
		"assistant msg_a2",
	}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("messages:\n got  %q\n want %q", order, want)
	}

	user := messageByID(msgs, "msg_u1")
	if !user.Content.IsParts || len(user.Content.Parts) != 2 || user.Content.Parts[1].Type != "image" {
		t.Fatalf("user message with a screenshot: %+v", user.Content)
	}
	src := user.Content.Parts[1].Source
	png, err := base64.StdEncoding.DecodeString(src.Value)
	if src.Type != "data" || src.MimeType != "image/png" || err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("image part: %s %s %v", src.Type, src.MimeType, err)
	}
	if !strings.HasPrefix(user.Content.String(), "GET /health answers 500") {
		t.Errorf("user text: %q", user.Content.String())
	}
	if v, ok := user.Metadata.String("createdAt"); !ok || v != "2026-11-28T09:14:02Z" {
		t.Errorf("the UIMessage's metadata is lost: %v", user.Metadata)
	}

	a := messageByID(msgs, "msg_a1/2")
	if a.Content.String() != "I'll read the health handler and run its test." || len(a.ToolCalls) != 2 {
		t.Fatalf("first step: %q, %d calls", a.Content.String(), len(a.ToolCalls))
	}
	if tc := a.ToolCalls[0]; tc.ID != "call_read_1" || tc.Type != "function" || tc.Function.Name != "read_file" || tc.Function.Arguments != `{"path":"internal/api/health.go"}` {
		t.Errorf("read call: %+v", tc)
	}
	if tc := a.ToolCalls[1]; tc.ID != "call_bash_1" || tc.Function.Name != "bash" || tc.Function.Arguments != `{"command":"go test ./internal/api/..."}` {
		t.Errorf("bash call: %+v", tc)
	}
	if r := messageByID(msgs, "msg_a1/4/result"); r.ToolCallID != "call_bash_1" || !strings.HasPrefix(r.Content.String(), "--- FAIL: TestHealth") || r.Error != "" {
		t.Errorf("bash result: %+v", r)
	}
	edit := messageByID(msgs, "msg_a1/7/result")
	if edit.ToolCallID != "call_edit_1" || !strings.HasPrefix(edit.Error, "old_string not found") || edit.Content.String() != edit.Error {
		t.Errorf("output-error: %+v", edit)
	}
	if m := messageByID(msgs, "msg_a1/12"); m == nil || m.Content.Present || len(m.ToolCalls) != 2 || m.ToolCalls[1].Function.Name != "browser_screenshot" {
		t.Errorf("a step of only tool calls (one dynamic): %+v", m)
	}
	shot := messageByID(msgs, "msg_a1/13/result")
	if !shot.Content.IsParts || len(shot.Content.Parts) != 2 || shot.Content.Parts[1].Type != "image" || shot.Content.Parts[1].Source.MimeType != "image/png" {
		t.Errorf("MCP screenshot result: %+v", shot.Content)
	}
	if last := messageByID(msgs, "msg_a1/15"); !strings.HasSuffix(last.Content.String(), "Source: net/http ResponseWriter — https://pkg.go.dev/net/http#ResponseWriter") {
		t.Errorf("the cited source is not kept as text: %q", last.Content.String())
	}

	f := foldReview(t, recs)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Errorf("records we made break rules: %+v", d)
	}
	type stepWant struct {
		label  string
		status model.Status
		shots  int
	}
	wantSteps := []stepWant{
		{"Read · internal/api/health.go", model.StatusCompleted, 0},
		{"Ran command · go test ./internal/api/...", model.StatusCompleted, 0},
		{"Edit failed · internal/api/health.go", model.StatusFailed, 0},
		{"Edited · internal/api/health.go", model.StatusCompleted, 0},
		{"Ran command · go test ./internal/...", model.StatusCompleted, 0},
		{"Fetched · https://pkg.go.dev/net/http#ResponseWriter", model.StatusCompleted, 0},
		{"Fetched · http://localhost:8080/health", model.StatusCompleted, 1},
		{"Running command · go vet ./...", model.StatusPending, 0},
	}
	steps := f.Steps()
	if len(steps) != len(wantSteps) {
		t.Fatalf("%d steps, want %d", len(steps), len(wantSteps))
	}
	for i, w := range wantSteps {
		s := steps[i]
		if s.Label() != w.label || s.Status != w.status || len(s.Screenshots) != w.shots || s.DurationMS != 0 {
			t.Errorf("step %d: %q %s %d shots %d ms; want %q %s %d shots", i, s.Label(), s.Status, len(s.Screenshots), s.DurationMS, w.label, w.status, w.shots)
		}
	}
	if steps[2].Result == "" || steps[6].Screenshots[0].Data == nil {
		t.Errorf("error text or screenshot bytes lost: %q %+v", steps[2].Result, steps[6].Screenshots)
	}
}

// The AG-UI snapshot fixture covers the same ground as the AI SDK one:
// both give the same steps, except that AG-UI says more (an exit code).
func TestDetectMessagesAGUISnapshot(t *testing.T) {
	b := readMessagesFixture(t, "agui-snapshot.json")
	recs := detectOK(t, "agui-snapshot.json", MessagesAGUI)
	read, err := ReadAll(bytes.NewReader(b))
	if err != nil || !reflect.DeepEqual(recs, read) {
		t.Fatalf("records differ from the Reader's (%v)", err)
	}
	ag := fold.New(fold.Options{}) // categories from the calls' metadata, no mapping
	if _, err := ag.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	if d := ag.Diagnostics(); len(d) != 0 {
		t.Errorf("diagnostics: %+v", d)
	}
	ui := foldReview(t, detectOK(t, "aisdk-coding-agent.json", MessagesAISDK))
	as, us := ag.Steps(), ui.Steps()
	if len(as) != len(us) {
		t.Fatalf("%d steps from AG-UI, %d from the AI SDK", len(as), len(us))
	}
	for i := range as {
		a, u := as[i], us[i]
		if a.ToolCallID != u.ToolCallID || a.ToolName != u.ToolName || a.Category != u.Category || a.Location != u.Location ||
			a.Args != u.Args || a.Result != u.Result || len(a.Screenshots) != len(u.Screenshots) {
			t.Errorf("step %d:\n AG-UI  %+v\n AI SDK %+v", i, a, u)
		}
		if a.ToolCallID == "call_bash_1" {
			if a.Status != model.StatusFailed || a.ExitCode == nil || *a.ExitCode != 1 {
				t.Errorf("exit code 1 does not fail the step: %s %v", a.Status, a.ExitCode)
			}
		} else if a.Status != u.Status {
			t.Errorf("step %d: %s from AG-UI, %s from the AI SDK", i, a.Status, u.Status)
		}
	}
}

// A snapshot exported without its run is still a messages file; the fold
// says the run's start is missing, as for any log that starts mid-run.
func TestDetectMessagesBareSnapshot(t *testing.T) {
	recs := detectOK(t, "agui-bare-snapshot.jsonl", MessagesAGUI)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	f := foldReview(t, recs)
	if n := len(f.Steps()); n != 2 {
		t.Errorf("%d steps, want 2", n)
	}
	if d := f.Diagnostics(); len(d) != 1 || d[0].Rule != fold.RuleFirstEvent {
		t.Errorf("diagnostics: %+v", d)
	}
}

func TestDetectMessagesEdgeParts(t *testing.T) {
	recs := detectOK(t, "aisdk-chat-object.json", MessagesAISDK)
	if start := recs[0].Event.(*agui.RunStarted); start.ThreadID != "chat_edge" {
		t.Errorf("the chat's id is not the thread: %q", start.ThreadID)
	}
	msgs := snapshotOf(t, recs)
	if m := messageByID(msgs, "sys"); m == nil || m.Role != agui.RoleSystem || m.Content.String() != "You are a careful coding agent." {
		t.Errorf("system message: %+v", m)
	}
	u := messageByID(msgs, "u1")
	var kinds []string
	for _, p := range u.Content.Parts {
		k := p.Type
		if p.Source != nil {
			k += " " + p.Source.Type + " " + p.Source.MimeType
		}
		kinds = append(kinds, k)
	}
	if want := []string{"text", "text", "document data text/plain", "image data image/svg+xml"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("user parts %q, want %q", kinds, want)
	}
	if !strings.Contains(u.Content.String(), "[file remote.png (image/png): https://example.com/remote.png]") {
		t.Errorf("a remote file is not named as text: %q", u.Content.String())
	}
	if svg, _ := base64.StdEncoding.DecodeString(u.Content.Parts[3].Source.Value); string(svg) != "<svg/>" {
		t.Errorf("percent-encoded data URL: %q", svg)
	}
	if m := messageByID(msgs, "a1"); m == nil || m.Role != agui.RoleActivity || m.ActivityType != "progress" || string(m.Content.Object) != `{"step":1,"of":3}` {
		t.Errorf("data part as activity: %+v", m)
	}
	if m := messageByID(msgs, "a1/3"); m == nil || string(m.Content.Object) != `{"value":"plain string data"}` {
		t.Errorf("data part that is not an object: %+v", m)
	}
	for _, m := range msgs {
		if m.Role == agui.RoleReasoning {
			t.Errorf("redacted reasoning (no text) became a message: %+v", m)
		}
	}

	f := foldReview(t, recs)
	if d := f.Diagnostics(); len(d) != 0 {
		t.Errorf("diagnostics: %+v", d)
	}
	got := map[string]string{}
	for _, s := range f.Steps() {
		got[s.ToolCallID] = string(s.Status) + " " + s.Label() + " " + s.Result
	}
	want := map[string]string{
		"c_stream":  "pending Using search ",
		"c_approve": "pending Using deploy ",
		"c_denied":  "cancelled rm cancelled denied: not the root",
		"c_mcp_err": "failed mcp_query failed permission denied",
		"c_content": "completed Used screenshot · window main shot",
		"c_json":    `completed Used json {"rows":[1,2],"ok":true}`,
		"c_fail":    "failed fail failed no state, but an error",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("steps:\n got  %q\n want %q", got, want)
	}
	for _, s := range f.Steps() {
		if s.ToolCallID == "c_content" && (len(s.Screenshots) != 1 || s.Screenshots[0].MimeType != "image/png") {
			t.Errorf("AI SDK content output: screenshots %+v", s.Screenshots)
		}
	}
	last := f.Items()[len(f.Items())-1]
	if last.Kind != model.ItemMessage || last.Text != "Done." {
		t.Errorf("text after tool calls is its own message: %+v", last)
	}
}

func TestDetectMessagesBroken(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"fixture: tool part without id", string(readMessagesFixture(t, "aisdk-broken-tool.json")), `messages[1].parts[1]: tool-read_file part has no "toolCallId"`},
		{"fixture: cut off", string(readMessagesFixture(t, "aisdk-truncated.json")), `not valid JSON: unexpected EOF within "/1/parts/`},
		{"role", `[{"id":"a","role":"tool","parts":[]}]`, `messages[0]: role "tool" is not user, assistant or system`},
		{"no parts later", `[{"id":"a","role":"user","parts":[]},{"id":"b","role":"user"}]`, `messages[1]: no "parts" array`},
		{"part not an object", `[{"id":"a","role":"user","parts":[{"type":"text","text":"x"},"y"]}]`, `messages[0].parts[1]: not an object`},
		{"part without type", `[{"id":"a","role":"user","parts":[{"text":"x"}]}]`, `messages[0].parts[0]: no "type"`},
		{"text not a string", `[{"id":"a","role":"user","parts":[{"type":"text","text":5}]}]`, `messages[0].parts[0]: `},
		{"element not an object", `[{"id":"a","role":"user","parts":[]},7]`, `messages[1]: not an object`},
		{"tool in a user message", `[{"id":"a","role":"user","parts":[{"type":"tool-x","toolCallId":"c","state":"input-available"}]}]`, `messages[0].parts[0]: a tool-x part in a user message`},
		{"dynamic tool without name", `[{"id":"a","role":"assistant","parts":[{"type":"dynamic-tool","toolCallId":"c","state":"input-available"}]}]`, `messages[0].parts[0]: dynamic-tool part has no tool name`},
		{"repeated call id", `[{"id":"a","role":"assistant","parts":[{"type":"tool-x","toolCallId":"c","state":"input-available"}]},{"id":"b","role":"assistant","parts":[{"type":"tool-y","toolCallId":"c","state":"input-available"}]}]`, `messages[1].parts[0]: toolCallId "c" was already used at messages[0].parts[0]`},
		{"v4 part", `[{"id":"a","role":"assistant","parts":[{"type":"tool-invocation","toolInvocation":{"state":"call","toolCallId":"c","toolName":"x","args":{}}}]}]`, `messages[0].parts[0]: an AI SDK v4 tool-invocation part`},
		{"object form", `{"messages":[{"id":"a","role":"user","parts":[]},{"role":"bot","parts":[]}]}`, `messages[1]: role "bot"`},
		{"garbage after", `[{"id":"a","role":"user","parts":[]}] x`, `not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, format, ok, err := DetectMessages([]byte(tt.in))
			if ok || recs != nil || format != MessagesAISDK || err == nil {
				t.Fatalf("format %q, ok %v, %d records, err %v", format, ok, len(recs), err)
			}
			if !strings.HasPrefix(err.Error(), "AI SDK UIMessage[] file: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
}

// Ordinary logs go on through the Reader; the one sample that is really
// messages-only is recognised.
func TestDetectMessagesOrdinaryLogs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "peer", "samples", "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	paths = append(paths, filepath.Join("..", "assets", "demo.jsonl"))
	messagesOnly := map[string]bool{"dart-messages_snapshot_activity_reasoning.json": true}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, format, ok, err := DetectMessages(b)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		name := filepath.Base(p)
		if ok != messagesOnly[name] {
			t.Errorf("%s: ok %v (%q)", name, ok, format)
			continue
		}
		if ok {
			read, _ := ReadAll(bytes.NewReader(b))
			if format != MessagesAGUI || !reflect.DeepEqual(recs, read) {
				t.Errorf("%s: %q, records differ from the Reader's", name, format)
			}
		} else if recs != nil || format != "" {
			t.Errorf("%s: not messages, yet %q and %d records", name, format, len(recs))
		}
	}
}

func TestDetectMessagesNotMessages(t *testing.T) {
	for _, in := range []string{
		"", " \n", "\ufeff", "[]", "{}", "null", "42", `"x"`, "[1,2]", "not json", "[{", "{\"messages\":",
		`{"messages":[]}`,
		`{"messages":[{"id":"a","role":"user","content":"hi"}]}`, // AG-UI messages, no parts
		`[{"id":"a","role":"user","content":"hi"}]`,
		`[{"type":"RUN_STARTED","threadId":"t","runId":"r","role":"user","parts":[]}]`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"user","parts":[]}],"x":1}` + "\n" + `{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`{"events":[{"type":"RUN_STARTED","threadId":"t","runId":"r"}],"messages":[{"id":"a","role":"user","parts":[]}]}`,
		`{"messages":[{"id":"a","role":"user","parts":[]}]}` + "\n" + `{"messages":[]}`, // JSON Lines of chats
		`[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}]`,
		`[{"type":"MESSAGES_SNAPSHOT","messages":[]}, 42]`,
		`[{"type":"RUN_STARTED","threadId":"0","runId":"r"},{"type":"MESSAGES_SNAPSHOT","messages":[]},{"type":"RUN_FINISHED","threadId":"1","runId":"r"}]`, // two threads
	} {
		recs, format, ok, err := DetectMessages([]byte(in))
		if ok || err != nil || recs != nil || format != "" {
			t.Errorf("%q: format %q, ok %v, err %v, %d records", in, format, ok, err, len(recs))
		}
	}
}

// Small inputs that pin the conversion's rules.
func TestConvertUIMessagesRules(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // "role id: text [calls]" per AG-UI message
	}{
		{
			"a repeated message id is made unique",
			`[{"id":"m","role":"user","parts":[{"type":"text","text":"a"}]},{"id":"m","role":"user","parts":[{"type":"text","text":"b"}]}]`,
			[]string{"user m: a", "user m~2: b"},
		},
		{
			"text after tool calls starts a new message, even without step-start",
			`[{"id":"m","role":"assistant","parts":[{"type":"text","text":"one"},{"type":"text","text":"two"},{"type":"tool-x","toolCallId":"c","state":"output-available","input":{"a":1},"output":7},{"type":"text","text":"three"}]}]`,
			[]string{"assistant m: one\n\ntwo [c]", "tool m/2/result: 7", "assistant m/3: three"},
		},
		{
			"a message without id is named by its place",
			`[{"role":"user","parts":[{"type":"text","text":"hi"}]}]`,
			[]string{"user messages[0]: hi"},
		},
		{
			"a message with nothing to show is left out",
			`[{"id":"m","role":"assistant","parts":[{"type":"step-start"},{"type":"reasoning","text":" "}]}]`,
			nil,
		},
		{
			"an image from the model stays with its text",
			`[{"id":"m","role":"assistant","parts":[{"type":"text","text":"here"},{"type":"file","mediaType":"image/gif","url":"data:image/gif;base64,R0lGODlhAQABAAAAACw="},{"type":"text","text":"there"}]}]`,
			[]string{"assistant m: here\n\nthere"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, _, ok, err := DetectMessages([]byte(tt.in))
			if !ok || err != nil {
				t.Fatalf("ok %v, err %v", ok, err)
			}
			var got []string
			for _, m := range snapshotOf(t, recs) {
				s := string(m.Role) + " " + m.ID + ": " + m.Content.String()
				if len(m.ToolCalls) > 0 {
					var ids []string
					for _, tc := range m.ToolCalls {
						ids = append(ids, tc.ID)
					}
					s += " [" + strings.Join(ids, " ") + "]"
				}
				got = append(got, s)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("\n got  %q\n want %q", got, tt.want)
			}
		})
	}
}

func TestDataURL(t *testing.T) {
	tests := []struct {
		in, mediaType, data string
		ok                  bool
	}{
		{"data:image/png;base64,iVBO", "image/png", "iVBO", true},
		{"DATA:text/plain;charset=utf-8;base64,aGk=", "text/plain", "aGk=", true},
		{"data:,a%20b", "", base64.StdEncoding.EncodeToString([]byte("a b")), true},
		{"data:text/plain,%zz", "", "", false},
		{"data:image/png;base64", "", "", false},
		{"https://example.com/a.png", "", "", false},
		{"file:///etc/passwd", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		mt, data, ok := dataURL(tt.in)
		if mt != tt.mediaType || data != tt.data || ok != tt.ok {
			t.Errorf("dataURL(%q) = %q, %q, %v; want %q, %q, %v", tt.in, mt, data, ok, tt.mediaType, tt.data, tt.ok)
		}
	}
}
