package fold_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/sources"
)

// acpLog builds ACP records from lines "send {…}" or "recv {…}", each
// 100 ms after the previous.
func acpLog(lines ...string) []model.Record {
	recs := make([]model.Record, len(lines))
	t0 := time.UnixMilli(1764500000000).UTC()
	for i, l := range lines {
		dir, msg, _ := strings.Cut(l, " ")
		recs[i] = model.Record{Seq: uint64(i + 1), Proto: model.ProtoACP, Raw: []byte(msg),
			Event: acp.DecodeDir([]byte(msg), acp.Direction(dir)), At: t0.Add(time.Duration(i) * 100 * time.Millisecond)}
	}
	return recs
}

func acpFold(t *testing.T, lines ...string) *fold.Fold {
	t.Helper()
	f := fold.New(fold.Options{})
	if _, err := f.Apply(acpLog(lines...)...); err != nil {
		t.Fatal(err)
	}
	if d := f.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %+v", d)
	}
	return f
}

// upd is a session/update line for session s.
func upd(update string) string {
	return `recv {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":` + update + `}}`
}

func chunk(kind, text, id string) string {
	m := ""
	if id != "" {
		m = `,"messageId":"` + id + `"`
	}
	return upd(`{"sessionUpdate":"` + kind + `","content":{"type":"text","text":"` + text + `"}` + m + `}`)
}

const (
	acpPrompt1 = `send {"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"fix it"}]}}`
	acpEnd1    = `recv {"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`
)

// itemsOf is the fold's items as kind/role/status/text, without diagnostics.
func itemsOf(f *fold.Fold) []string {
	var out []string
	for _, it := range f.Items() {
		if it.Kind == model.ItemDiagnostic {
			continue
		}
		s := string(it.Kind)
		if it.Role != "" {
			s += "/" + it.Role
		}
		s += " " + string(it.Status)
		if it.Text != "" {
			s += " " + it.Text
		}
		out = append(out, s)
	}
	return out
}

func TestACPChunksByMessage(t *testing.T) {
	f := acpFold(t,
		chunk("user_message_chunk", "hi ", ""), chunk("user_message_chunk", "there", ""),
		chunk("agent_thought_chunk", "hmm", ""),
		chunk("agent_message_chunk", "a1 ", "a"), chunk("agent_message_chunk", "a2", ""), // no id: continues a
		chunk("agent_message_chunk", "b1", "b"),    // another id: a new message
		chunk("agent_thought_chunk", "again", "b"), // another role: new, even with the same id
		chunk("agent_message_chunk", "c1", ""),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"ls","kind":"execute"}`),
		chunk("agent_message_chunk", "c2", ""), // something shown in between: new
	)
	want := []string{
		"message/user completed hi there",
		"reasoning/reasoning completed hmm",
		"message/assistant completed a1 a2",
		"message/assistant completed b1",
		"reasoning/reasoning completed again",
		"message/assistant completed c1",
		"tool_call open",
		"message/assistant open c2",
	}
	if got := itemsOf(f); !reflect.DeepEqual(got, want) {
		t.Errorf("items\n got %q\nwant %q", got, want)
	}
	if it := f.Items()[2]; it.ID != "a" {
		t.Errorf("message id %q", it.ID)
	}
}

func TestACPRunsAndStopReasons(t *testing.T) {
	for _, tc := range []struct {
		answer     string
		status     model.Status
		outcome    string
		stepStatus model.Status
	}{
		{`"result":{"stopReason":"end_turn"}`, model.StatusCompleted, "end_turn", model.StatusCompleted},
		{`"result":{"stopReason":"cancelled"}`, model.StatusCancelled, "cancelled", model.StatusCancelled},
		{`"result":{"stopReason":"refusal"}`, model.StatusCompleted, "refusal", model.StatusCompleted},
		{`"result":{"stopReason":"max_tokens"}`, model.StatusCompleted, "max_tokens", model.StatusCompleted},
		{`"result":{"stopReason":"max_turn_requests"}`, model.StatusCompleted, "max_turn_requests", model.StatusCompleted},
		{`"error":{"code":-32603,"message":"overloaded"}`, model.StatusFailed, "", model.StatusFailed},
	} {
		t.Run(string(tc.status)+"/"+tc.outcome, func(t *testing.T) {
			f := acpFold(t, acpPrompt1,
				chunk("agent_message_chunk", "working", ""),
				upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"ls","kind":"execute","status":"in_progress"}`),
				upd(`{"sessionUpdate":"tool_call","toolCallId":"t2","title":"cat","kind":"read","status":"completed"}`),
				`recv {"jsonrpc":"2.0","id":1,`+tc.answer+`}`)
			runs := f.Runs()
			if len(runs) != 1 {
				t.Fatalf("%d runs", len(runs))
			}
			r := runs[0]
			if r.RunID != "1" || r.ThreadID != "s" || r.Status != tc.status || r.Outcome != tc.outcome || r.FirstSeq != 1 || r.LastSeq != 5 || r.Ended.IsZero() {
				t.Errorf("run %+v", r)
			}
			if tc.status == model.StatusFailed && (r.Error != "overloaded" || r.ErrorCode != "-32603") {
				t.Errorf("run error %q %q", r.Error, r.ErrorCode)
			}
			steps := f.Steps()
			if steps[0].Status != tc.stepStatus || steps[1].Status != model.StatusCompleted {
				t.Errorf("steps settled as %s, %s", steps[0].Status, steps[1].Status)
			}
			items := f.Items()
			if items[0].Kind != model.ItemRun || items[0].Status != tc.status || items[1].Role != "user" || items[1].Text != "fix it" {
				t.Errorf("run and prompt items: %+v %+v", items[0], items[1])
			}
			if items[2].Status != model.StatusCompleted {
				t.Errorf("reply left %s", items[2].Status)
			}
			last := items[len(items)-1]
			if (tc.status == model.StatusFailed) != (last.Kind == model.ItemError && last.Text == "overloaded") {
				t.Errorf("error row: %+v", last)
			}
		})
	}
}

func TestACPToolCallFields(t *testing.T) {
	f := acpFold(t, acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Edit a.go","kind":"edit","status":"pending",`+
			`"locations":[{"path":"/w/a.go","line":3},{"path":"/w/b.go"}],"rawInput":{"path":"/w/a.go"},`+
			`"content":[{"type":"diff","path":"/w/a.go","oldText":"x\n","newText":"y\n"},{"type":"diff","path":"/w/b.go","oldText":null,"newText":"new\n"},`+
			`{"type":"content","content":{"type":"text","text":"proposed"}}]}`))
	s := f.Steps()[0]
	old := "x\n"
	want := model.Step{Index: 0, ToolCallID: "t1", Category: model.CategoryEdit, Location: "/w/a.go:3", Status: model.StatusPending,
		Title: "Edit a.go", Locations: []model.Location{{Path: "/w/a.go", Line: 3}, {Path: "/w/b.go"}},
		Diffs: []model.Diff{{Path: "/w/a.go", OldText: &old, NewText: "y\n"}, {Path: "/w/b.go", NewText: "new\n"}},
		RunID: "1", Args: `{"path":"/w/a.go"}`, ArgsJSON: json.RawMessage(`{"path":"/w/a.go"}`), Result: "proposed", HasResult: true,
		Started: s.Started, FirstSeq: 2, LastSeq: 2}
	if !reflect.DeepEqual(*s, want) {
		t.Errorf("step\n got %+v\nwant %+v", *s, want)
	}
	if l := s.Label(); l != "Editing · /w/a.go:3" {
		t.Errorf("label %q", l)
	}

	// An update changes only what it sends; content and locations replace.
	f.Apply(acpLog(acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Edit a.go","kind":"edit","status":"pending","locations":[{"path":"/w/a.go","line":3},{"path":"/w/b.go"}],"content":[{"type":"content","content":{"type":"text","text":"proposed"}}]}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress","title":null}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","locations":[{"path":"/w/c.go"}],"content":[],"rawOutput":{"ok":true}}`),
	)[2:]...)
	s = f.Steps()[0]
	if s.Title != "Edit a.go" || s.Category != model.CategoryEdit || s.Status != model.StatusCompleted || s.Location != "/w/c.go" || len(s.Locations) != 1 ||
		len(s.Diffs) != 0 || s.Result != `{"ok":true}` || string(s.ResultJSON) != `{"ok":true}` || s.Ended.IsZero() || s.DurationMS != 200 {
		t.Errorf("after updates: %+v", *s)
	}
	if it := f.Items()[2]; it.Kind != model.ItemToolCall || it.Status != model.StatusCompleted || it.Step != 0 {
		t.Errorf("tool item %+v", it)
	}
}

func TestACPLabels(t *testing.T) {
	f := acpFold(t,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"a","title":"git status","kind":"execute","status":"in_progress"}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"b","title":"Screenshot","status":"completed"}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"c","title":"Read","kind":"read","locations":[{"path":"/w/x.go"}]}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"d","title":"","kind":"teleport"}`),
	)
	want := []string{"Running command · git status", "Screenshot", "Reading · /w/x.go", "Using "}
	for i, s := range f.Steps() {
		if got := s.Label(); got != want[i] {
			t.Errorf("step %d label %q, want %q", i, got, want[i])
		}
	}
	if c := f.Steps()[3].Category; c != model.CategoryOther {
		t.Errorf("unknown kind: category %s", c)
	}
}

func TestACPUnannouncedUpdate(t *testing.T) {
	f := acpFold(t, upd(`{"sessionUpdate":"tool_call_update","toolCallId":"ghost","status":"completed","content":[{"type":"content","content":{"type":"text","text":"done"}}]}`))
	steps := f.Steps()
	if len(steps) != 1 || steps[0].ToolCallID != "ghost" || steps[0].Status != model.StatusCompleted || steps[0].Category != model.CategoryOther || steps[0].Result != "done" {
		t.Fatalf("steps %+v", steps)
	}
	if it := f.Items()[0]; it.Kind != model.ItemToolCall || it.ID != "ghost" || it.Status != model.StatusCompleted {
		t.Errorf("item %+v", it)
	}
}

func TestACPTerminalMeta(t *testing.T) {
	f := acpFold(t,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"make","kind":"execute","status":"in_progress","rawInput":{"command":"make"},"content":[{"type":"terminal","terminalId":"t1"}],"_meta":{"terminal_info":{"terminal_id":"t1"}}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","_meta":{"terminal_output":{"terminal_id":"t1","data":"cc -o x\n"}}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","_meta":{"terminal_output":{"terminal_id":"t1","data":"\u001b[31merror\u001b[0m\n"}}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"failed","_meta":{"terminal_exit":{"terminal_id":"t1","exit_code":2,"signal":null}}}`),
		// Claude sends the output once, with no terminal content and no id.
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t2","title":"ls","kind":"execute","status":"completed","_meta":{"terminal_output":{"data":"a\nb\n"},"terminal_exit":{"exit_code":0}}}`),
	)
	s := f.Steps()[0]
	if s.Result != "cc -o x\n\x1b[31merror\x1b[0m\n" || s.ExitCode == nil || *s.ExitCode != 2 || s.Status != model.StatusFailed || !s.HasResult {
		t.Errorf("step %+v", *s)
	}
	s = f.Steps()[1]
	if s.Result != "a\nb\n" || s.ExitCode == nil || *s.ExitCode != 0 {
		t.Errorf("one-shot output: %+v", *s)
	}
}

func TestACPClientTerminal(t *testing.T) {
	f := acpFold(t, acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"go test","kind":"execute","status":"in_progress"}`),
		`recv {"jsonrpc":"2.0","id":1,"method":"terminal/create","params":{"sessionId":"s","command":"go","args":["test"]}}`,
		`send {"jsonrpc":"2.0","id":1,"result":{"terminalId":"term-1"}}`,
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","content":[{"type":"content","content":{"type":"text","text":"running:"}},{"type":"terminal","terminalId":"term-1"}]}`),
		`recv {"jsonrpc":"2.0","id":2,"method":"terminal/output","params":{"sessionId":"s","terminalId":"term-1"}}`,
		`send {"jsonrpc":"2.0","id":2,"result":{"output":"ok\n","truncated":false}}`,
		`recv {"jsonrpc":"2.0","id":3,"method":"terminal/wait_for_exit","params":{"sessionId":"s","terminalId":"term-1"}}`,
		`send {"jsonrpc":"2.0","id":3,"result":{"exitCode":3}}`,
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`),
		acpEnd1)
	s := f.Steps()[0]
	if s.Result != "running:\nok\n" || s.ExitCode == nil || *s.ExitCode != 3 || s.Status != model.StatusCompleted {
		t.Errorf("step %+v", *s)
	}
	if r := f.Runs()[0]; r.Status != model.StatusCompleted {
		t.Errorf("the prompt's answer (id 1, from the agent) was taken for another: %+v", r)
	}
}

func TestACPScreenshots(t *testing.T) {
	f := acpFold(t,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"shot","status":"completed","content":[{"type":"content","content":{"type":"image","mimeType":"image/png","data":"aGVsbG8="}},{"type":"content","content":{"type":"image","mimeType":"image/png","uri":"https://x/y.png"}},{"type":"content","content":{"type":"image","mimeType":"image/png","data":"!!"}}]}`))
	got := f.Steps()[0].Screenshots
	want := []model.Image{{MimeType: "image/png", Data: []byte("hello")}, {MimeType: "image/png", URL: "https://x/y.png"}, {MimeType: "image/png", Truncated: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("screenshots %+v", got)
	}
}

func TestACPPermission(t *testing.T) {
	lines := []string{acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"rm build","kind":"delete","status":"in_progress"}`),
		`recv {"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t1","title":"rm -rf build","locations":[{"path":"/w/build"}]},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
	}
	f := acpFold(t, lines...)
	s := f.Steps()[0]
	if s.Status != model.StatusPending || s.Title != "rm -rf build" || s.Location != "/w/build" {
		t.Errorf("waiting step %+v", *s)
	}
	it := f.Items()[len(f.Items())-1]
	if it.Kind != model.ItemPermission || it.Status != model.StatusOpen || it.ID != "perm-1" || it.Step != 0 || it.Name != "rm -rf build" ||
		string(it.Data) != `[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]` {
		t.Errorf("permission item %+v (%s)", it, it.Data)
	}
	for answer, want := range map[string][2]string{
		`{"outcome":{"outcome":"selected","optionId":"no"}}`: {"completed", "rejected"},
		`{"outcome":{"outcome":"cancelled"}}`:                {"cancelled", "cancelled"},
	} {
		f := acpFold(t, append(lines, `send {"jsonrpc":"2.0","id":"perm-1","result":`+answer+`}`)...)
		it := f.Items()[len(f.Items())-1]
		if string(it.Status) != want[0] || it.Text != want[1] {
			t.Errorf("%s: item %s %q", answer, it.Status, it.Text)
		}
	}
}

func TestACPPlan(t *testing.T) {
	f := acpFold(t,
		upd(`{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"in_progress"},{"content":"b","priority":"low","status":"pending"}]}`),
		chunk("agent_message_chunk", "x", ""),
		upd(`{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"completed"},{"content":"b","priority":"low","status":"completed"},{"content":"c","priority":"medium","status":"pending"}]}`),
	)
	items := f.Items()
	plans := 0
	for _, it := range items {
		if it.Kind == model.ItemPlan {
			plans++
		}
	}
	it := items[0]
	if plans != 1 || it.Kind != model.ItemPlan || it.Status != model.StatusRunning || it.Text != "2 of 3 done" || it.Version < 2 {
		t.Fatalf("plan item %+v", it)
	}
	var entries []model.PlanEntry
	if err := json.Unmarshal(it.Data, &entries); err != nil {
		t.Fatal(err)
	}
	want := []model.PlanEntry{{Content: "a", Priority: "high", Status: "completed"}, {Content: "b", Priority: "low", Status: "completed"}, {Content: "c", Priority: "medium", Status: "pending"}}
	if !reflect.DeepEqual(entries, want) {
		t.Errorf("entries %+v", entries)
	}
}

func TestACPSessionStatus(t *testing.T) {
	f := acpFold(t,
		`send {"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
		`recv {"jsonrpc":"2.0","id":0,"result":{"sessionId":"s","modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code","name":"Code","description":"edits"}]}}}`,
		upd(`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"init","description":"AGENTS.md","input":{"hint":"dir"}}]}`),
		upd(`{"sessionUpdate":"session_info_update","title":"Fix it","updatedAt":"2026-11-30T10:00:00.5Z"}`),
		upd(`{"sessionUpdate":"usage_update","used":1200,"size":200000,"cost":{"amount":0.25,"currency":"EUR"}}`),
		`send {"jsonrpc":"2.0","id":1,"method":"session/set_mode","params":{"sessionId":"s","modeId":"code"}}`,
		`recv {"jsonrpc":"2.0","id":1,"result":{}}`,
		upd(`{"sessionUpdate":"config_option_update","configOptions":[{"id":"m","name":"Model","category":"model","type":"select","currentValue":"opus"},{"id":"t","name":"Think","type":"boolean","currentValue":false}]}`),
		upd(`{"sessionUpdate":"current_mode_update","currentModeId":"plan"}`),
	)
	want := model.Session{ID: "s", Title: "Fix it", Mode: "plan",
		Modes:    []model.Mode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code", Description: "edits"}},
		Commands: []model.Command{{Name: "init", Description: "AGENTS.md", Hint: "dir"}},
		Options:  []model.ConfigOption{{ID: "m", Name: "Model", Category: "model", Value: "opus"}, {ID: "t", Name: "Think", Value: "false"}},
		Used:     1200, Size: 200000, Cost: "0.25 EUR",
		UpdatedAt: time.Date(2026, 11, 30, 10, 0, 0, 5e8, time.UTC)}
	if got := f.Session(); !reflect.DeepEqual(got, want) {
		t.Errorf("session\n got %+v\nwant %+v", got, want)
	}
	if f.ThreadID() != "s" {
		t.Errorf("thread %q", f.ThreadID())
	}
	if n := len(f.Items()); n != 0 {
		t.Errorf("session status made %d items", n)
	}
}

func TestACPUnknownUpdateAndOtherTraffic(t *testing.T) {
	f := acpFold(t,
		`send {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		`recv {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`,
		`recv {"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/w/a"}}`,
		`send {"jsonrpc":"2.0","id":5,"result":{"content":"x"}}`,
		`recv {"jsonrpc":"2.0","method":"$/progress","params":{}}`,
		upd(`{"sessionUpdate":"compaction_update","compactionId":"c","status":"started"}`),
	)
	items := f.Items()
	if len(items) != 1 || items[0].Kind != model.ItemUnknown || items[0].Name != "compaction_update" || string(items[0].Data) != `{"sessionUpdate":"compaction_update","compactionId":"c","status":"started"}` {
		t.Errorf("items %+v", items)
	}
	if w := f.Warnings(); len(w) != 1 || w[0].Type != "compaction_update" {
		t.Errorf("warnings %+v", w)
	}
}

// Protocol problems are diagnostics, and the record that has one changes
// nothing else.
func TestACPDiagnostics(t *testing.T) {
	base := []string{acpPrompt1, chunk("agent_message_chunk", "hello", "m")}
	for _, tc := range []struct {
		line string
		rule fold.Rule
		err  bool
	}{
		{`recv {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"other","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"},"messageId":"m"}}}`, fold.RuleACPSession, true},
		{`recv {"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"other","toolCall":{"toolCallId":"t"},"options":[]}}`, fold.RuleACPSession, true},
		{`recv {"jsonrpc":"2.0","id":42,"result":{"stopReason":"end_turn"}}`, fold.RuleACPResponse, false},
		{`send {"jsonrpc":"2.0","id":1,"result":{}}`, fold.RuleACPResponse, false}, // id 1 is in flight the other way
		{upd(`{"sessionUpdate":"agent_message_chunk","content":"not a block"}`), fold.RuleMalformed, false},
		{`recv {"jsonrpc":"2.0","result":{}}`, fold.RuleMalformed, false},
		{`recv {oops`, fold.RuleUnreadable, false},
	} {
		f := acpFold(t, base...)
		before := viewOf(t, f)
		recs := acpLog(append(base, tc.line)...)
		u, err := f.Apply(recs[len(recs)-1])
		if tc.err != errors.Is(err, fold.ErrCorrelation) {
			t.Errorf("%s: err %v", tc.line, err)
		}
		if len(u.Diagnostics) != 1 || u.Diagnostics[0].Rule != tc.rule || u.Diagnostics[0].Seq != 3 {
			t.Errorf("%s: diagnostics %+v", tc.line, u.Diagnostics)
		}
		if !reflect.DeepEqual(before, viewOf(t, f)) {
			t.Errorf("%s: a rejected message changed the fold", tc.line)
		}
	}
}

// The coding session recording, item by item and step by step.
func TestACPCodingSession(t *testing.T) {
	f := foldRecording(t, "coding-session.jsonl")
	if d := f.Diagnostics(); len(d) != 0 {
		t.Fatalf("diagnostics %+v", d)
	}
	type row struct {
		kind   model.ItemKind
		status model.Status
		text   string
	}
	want := []row{
		{model.ItemRun, model.StatusCompleted, ""},
		{model.ItemMessage, model.StatusCompleted, "The length tests fail. Fix ParseLength.\n[length.go](file:///home/dev/tempo/internal/schedule/length.go)"},
		{model.ItemPlan, model.StatusRunning, "3 of 4 done"},
		{model.ItemReasoning, model.StatusCompleted, "The user says tests fail; run them first to see how."},
		{model.ItemMessage, model.StatusCompleted, "I'll run the tests first."},
		{model.ItemToolCall, model.StatusFailed, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemReasoning, model.StatusCompleted, "Strings like 1h30 have no m suffix; time.ParseDuration needs one."},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemPermission, model.StatusCompleted, "allowed once"},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemToolCall, model.StatusFailed, ""},
		{model.ItemToolCall, model.StatusCompleted, ""},
		{model.ItemUnknown, model.StatusCompleted, ""},
		{model.ItemMessage, model.StatusCompleted, "Fixed: `ParseLength` now accepts `1h30`. All tests pass."},
		{model.ItemRun, model.StatusCancelled, ""},
		{model.ItemMessage, model.StatusCompleted, "Now update the README examples."},
		{model.ItemMessage, model.StatusCompleted, "Looking at the README examples…"},
		{model.ItemToolCall, model.StatusCancelled, ""},
		{model.ItemPermission, model.StatusCancelled, "cancelled"},
		{model.ItemRun, model.StatusCompleted, ""},
		{model.ItemMessage, model.StatusCompleted, "Delete the whole repository."},
		{model.ItemMessage, model.StatusCompleted, "I won't delete the repository."},
		{model.ItemRun, model.StatusCompleted, ""},
		{model.ItemMessage, model.StatusCompleted, "Explain every file."},
		{model.ItemMessage, model.StatusCompleted, "cmd/tempo/main.go wires the flags…"},
		{model.ItemRun, model.StatusFailed, ""},
		{model.ItemMessage, model.StatusCompleted, "Try again."},
		{model.ItemError, model.StatusFailed, "model overloaded"},
	}
	items := f.Items()
	if len(items) != len(want) {
		t.Errorf("%d items, want %d", len(items), len(want))
	}
	for i := range min(len(items), len(want)) {
		if got := (row{items[i].Kind, items[i].Status, items[i].Text}); got != want[i] {
			t.Errorf("item %d: %+v, want %+v", i, got, want[i])
		}
	}

	type stepRow struct {
		id     string
		cat    model.Category
		status model.Status
		label  string
		exit   int // -1: none
	}
	wantSteps := []stepRow{
		{"call-test", model.CategoryExecute, model.StatusFailed, "Command failed (exit 1) · `go test ./internal/schedule/`", 1},
		{"call-read", model.CategoryRead, model.StatusCompleted, "Read · /home/dev/tempo/internal/schedule/length.go:20", -1},
		{"call-grep", model.CategorySearch, model.StatusCompleted, "Searched · ParseLength", -1},
		{"call-edit", model.CategoryEdit, model.StatusCompleted, "Edited · /home/dev/tempo/internal/schedule/length.go:24", -1},
		{"call-new", model.CategoryEdit, model.StatusCompleted, "Created · /home/dev/tempo/internal/schedule/length_cases_test.go", -1},
		{"call-retest", model.CategoryExecute, model.StatusCompleted, "Ran command · go test ./...", 0},
		{"call-fetch", model.CategoryFetch, model.StatusCompleted, "Fetched · pkg.go.dev/time#ParseDuration", -1},
		{"call-shot", model.CategoryOther, model.StatusCompleted, "Screenshot of the Tempo window", -1},
		{"call-think", model.CategoryThink, model.StatusCompleted, "Thought · Check edge cases", -1},
		{"call-move", model.CategoryMove, model.StatusCompleted, "Moved · /home/dev/tempo/testdata/old.json → archive/old.json", -1},
		{"call-delete", model.CategoryDelete, model.StatusFailed, "Delete failed · /home/dev/tempo/internal/schedule/length_old.go", -1},
		{"call-ghost", model.CategoryOther, model.StatusCompleted, "Indexed the workspace", -1},
		{"call-readme", model.CategoryRead, model.StatusCancelled, "Read cancelled · /home/dev/tempo/README.md", -1},
	}
	steps := f.Steps()
	if len(steps) != len(wantSteps) {
		t.Fatalf("%d steps, want %d", len(steps), len(wantSteps))
	}
	for i, w := range wantSteps {
		s := steps[i]
		exit := -1
		if s.ExitCode != nil {
			exit = *s.ExitCode
		}
		if got := (stepRow{s.ToolCallID, s.Category, s.Status, s.Label(), exit}); got != w {
			t.Errorf("step %d: %+v, want %+v", i, got, w)
		}
	}
	if s := steps[0]; !strings.Contains(s.Result, "\x1b[31m--- FAIL: TestParseLength (0.00s)\x1b[0m\n") || !strings.HasPrefix(s.Result, "=== RUN") || s.ToolName != "Bash" {
		t.Errorf("terminal output: %q (%s)", s.Result, s.ToolName)
	}
	if s := steps[2]; len(s.Locations) != 3 || s.Locations[2] != (model.Location{Path: "/home/dev/tempo/cmd/tempo/main.go", Line: 58}) {
		t.Errorf("search locations %+v", s.Locations)
	}
	if s := steps[3]; len(s.Diffs) != 1 || s.Diffs[0].OldText == nil || !strings.Contains(s.Diffs[0].NewText, "strings.HasSuffix") || s.Result != "Edited internal/schedule/length.go (+3 −4)." {
		t.Errorf("edit %+v", s)
	}
	if s := steps[4]; len(s.Diffs) != 1 || s.Diffs[0].OldText != nil {
		t.Errorf("new file %+v", s.Diffs)
	}
	if s := steps[5]; !strings.Contains(s.Result, "\x1b[32mok\x1b[0m") {
		t.Errorf("client terminal output %q", s.Result)
	}
	if s := steps[7]; len(s.Screenshots) != 1 || len(s.Screenshots[0].Data) == 0 || string(s.ResultJSON) != `{"height":6,"width":8}` && string(s.ResultJSON) != `{"width":8,"height":6}` {
		t.Errorf("screenshot step %+v", s)
	}
	if s := steps[10]; s.Result != "remove length_old.go: no such file or directory" {
		t.Errorf("rawOutput as result: %q", s.Result)
	}
	wantRuns := [][3]string{{"2", "completed", "end_turn"}, {"4", "cancelled", "cancelled"}, {"5", "completed", "refusal"}, {"6", "completed", "max_tokens"}, {"7", "failed", ""}}
	for i, r := range f.Runs() {
		if got := [3]string{r.RunID, string(r.Status), r.Outcome}; got != wantRuns[i] {
			t.Errorf("run %d: %v, want %v", i, got, wantRuns[i])
		}
	}
	s := f.Session()
	if s.ID != "sess-7f3a" || s.Title != "Fix ParseLength" || s.Mode != "plan" || len(s.Modes) != 3 || len(s.Commands) != 2 || s.Used != 48210 || s.Cost != "0.0731 USD" {
		t.Errorf("session %+v", s)
	}
}

// A session loaded from the agent: its replayed history shows as
// messages and completed steps outside any run, then the next prompt runs.
func TestACPSessionLoad(t *testing.T) {
	f := foldRecording(t, "session-load.jsonl")
	want := []string{
		"message/user completed The length tests fail. Fix ParseLength.",
		"reasoning/reasoning completed **Run the tests**\nSee how they fail first.",
		"message/assistant completed I'll run the tests first.",
		"tool_call failed",
		"tool_call completed",
		"tool_call completed",
		"plan completed 2 of 2 done",
		"message/assistant completed Fixed: all tests pass.",
		"message/user completed Thanks!",
		"run completed",
		"message/user completed Add a test for 2h.",
		"message/assistant completed Added.",
	}
	if got := itemsOf(f); !reflect.DeepEqual(got, want) {
		t.Errorf("items\n got %q\nwant %q", got, want)
	}
	for _, s := range f.Steps() {
		if s.RunID != "" {
			t.Errorf("replayed step %s in run %q", s.ToolCallID, s.RunID)
		}
	}
	if s := f.Steps()[0]; !strings.Contains(s.Result, "--- FAIL") || s.ExitCode != nil {
		t.Errorf("replayed terminal: %q", s.Result)
	}
	if s := f.Session(); s.ID != "sess-7f3a" || s.Mode != "default" || len(s.Commands) != 1 {
		t.Errorf("session %+v", s)
	}
}

func foldRecording(t *testing.T, name string) *fold.Fold {
	t.Helper()
	fh, err := os.Open("../testdata/acp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	recs, err := sources.ReadACPRecording(fh)
	if err != nil {
		t.Fatal(err)
	}
	f := fold.New(fold.Options{})
	f.Apply(recs...)
	return f
}

// Streaming a long output costs its length, not its length squared, and
// stops at MaxTerminalBytes.
func TestACPTerminalOutputIsCapped(t *testing.T) {
	lines := []string{upd(`{"sessionUpdate":"tool_call","toolCallId":"t","title":"yes","kind":"execute","status":"in_progress"}`)}
	chunkText := strings.Repeat("y\\n", 1<<15) // 64 KiB once decoded
	for range fold.MaxTerminalBytes/(1<<16) + 8 {
		lines = append(lines, upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"terminal_output":{"data":"`+chunkText+`"}}}`))
	}
	f := acpFold(t, lines...)
	if n := len(f.Steps()[0].Result); n > fold.MaxTerminalBytes || n < fold.MaxTerminalBytes-1<<16 {
		t.Errorf("kept %d bytes", n)
	}
}
