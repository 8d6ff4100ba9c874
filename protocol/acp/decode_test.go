package acp_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

func ptr[T any](v T) *T { return &v }

// TestDecodeUpdates decodes one update of every kind and checks the fields
// the fold reads.
func TestDecodeUpdates(t *testing.T) {
	wrap := func(update string) string {
		return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":` + update + `}}`
	}
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"user chunk", wrap(`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"fix it"},"messageId":"u1"}`),
			&acp.UserMessageChunk{acp.Chunk{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Content: acp.ContentBlock{Type: "text", Text: "fix it"}, MessageID: "u1"}}},
		{"agent chunk without id", wrap(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}`),
			&acp.AgentMessageChunk{acp.Chunk{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Content: acp.ContentBlock{Type: "text", Text: "ok"}}}},
		{"thought chunk", wrap(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"},"messageId":null}`),
			&acp.AgentThoughtChunk{acp.Chunk{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Content: acp.ContentBlock{Type: "text", Text: "hmm"}}}},
		{"plan", wrap(`{"sessionUpdate":"plan","entries":[{"content":"read","priority":"high","status":"completed"},{"content":"fix","priority":"low","status":"pending"}]}`),
			&acp.Plan{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Entries: []acp.PlanEntry{{"read", "high", "completed"}, {"fix", "low", "pending"}}}},
		{"commands", wrap(`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"init","description":"make AGENTS.md"},{"name":"review","description":"review","input":{"hint":"branch"}}]}`),
			&acp.AvailableCommandsUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Commands: []acp.Command{{"init", "make AGENTS.md", ""}, {"review", "review", "branch"}}}},
		{"mode", wrap(`{"sessionUpdate":"current_mode_update","currentModeId":"plan"}`),
			&acp.CurrentModeUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, ModeID: "plan"}},
		{"config", wrap(`{"sessionUpdate":"config_option_update","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"opus","options":[]}]}`),
			&acp.ConfigOptionUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Options: []acp.ConfigOption{{ID: "model", Name: "Model", Category: "model", Type: "select", Value: []byte(`"opus"`)}}}},
		{"info", wrap(`{"sessionUpdate":"session_info_update","title":"Fix the test","updatedAt":"2026-11-30T10:00:00Z"}`),
			&acp.SessionInfoUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Title: "Fix the test", TitleSet: true, UpdatedAt: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}},
		{"info title cleared", wrap(`{"sessionUpdate":"session_info_update","title":null}`),
			&acp.SessionInfoUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, TitleSet: true}},
		{"usage", wrap(`{"sessionUpdate":"usage_update","used":53000,"size":200000,"cost":{"amount":0.42,"currency":"USD"}}`),
			&acp.UsageUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Used: 53000, Size: 200000, Cost: &acp.Cost{Amount: 0.42, Currency: "USD"}}},
		{"unknown kind", wrap(`{"sessionUpdate":"compaction_summary_chunk","content":{"type":"text","text":"x"}}`),
			&acp.UnknownUpdate{UpdateBase: acp.UpdateBase{SessionID: "sess-1"}, Kind: "compaction_summary_chunk", Raw: []byte(`{"sessionUpdate":"compaction_summary_chunk","content":{"type":"text","text":"x"}}`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := acp.Decode([]byte(tc.in))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// TestDecodeToolCall checks every field of a tool call and what an update
// leaves unsaid.
func TestDecodeToolCall(t *testing.T) {
	in := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit main.go","kind":"edit","status":"pending",` +
		`"content":[{"type":"diff","path":"/w/main.go","oldText":"a\n","newText":"b\n"},{"type":"diff","path":"/w/new.go","oldText":null,"newText":"x"},` +
		`{"type":"content","content":{"type":"image","data":"iVBO","mimeType":"image/png"}},{"type":"terminal","terminalId":"term-1"},{"type":"later","x":1}],` +
		`"locations":[{"path":"/w/main.go","line":12},{"path":"/w/new.go"}],"rawInput":{"path":"/w/main.go"},"rawOutput":null,` +
		`"_meta":{"claudeCode":{"toolName":"Edit"},"terminal_exit":{"exit_code":2,"signal":null}}}}}`
	ev, ok := acp.Decode([]byte(in)).(*acp.ToolCall)
	if !ok {
		t.Fatalf("decoded %T", acp.Decode([]byte(in)))
	}
	tc := ev.ToolCallFields
	if tc.ToolCallID != "c1" || *tc.Title != "Edit main.go" || *tc.Kind != "edit" || *tc.Status != "pending" || tc.Name != nil {
		t.Errorf("fields: %+v", tc)
	}
	if !tc.ContentSet || len(tc.Content) != 5 {
		t.Fatalf("content: %+v", tc.Content)
	}
	if c := tc.Content[0]; c.Type != "diff" || c.Path != "/w/main.go" || c.OldText == nil || *c.OldText != "a\n" || c.NewText != "b\n" {
		t.Errorf("diff: %+v", c)
	}
	if c := tc.Content[1]; c.OldText != nil || c.NewText != "x" {
		t.Errorf("new file diff: %+v", c)
	}
	if c := tc.Content[2]; c.Type != "content" || c.Content.Type != "image" || c.Content.Data != "iVBO" {
		t.Errorf("image: %+v", c)
	}
	if c := tc.Content[3]; c.TerminalID != "term-1" {
		t.Errorf("terminal: %+v", c)
	}
	if c := tc.Content[4]; c.Type != "later" || string(c.Raw) != `{"type":"later","x":1}` {
		t.Errorf("unknown content kept: %+v", c)
	}
	if !tc.LocationsSet || !reflect.DeepEqual(tc.Locations, []acp.Location{{"/w/main.go", 12}, {"/w/new.go", 0}}) {
		t.Errorf("locations: %+v", tc.Locations)
	}
	if string(tc.RawInput) != `{"path":"/w/main.go"}` || len(tc.RawOutput) != 0 {
		t.Errorf("raw: %s / %s", tc.RawInput, tc.RawOutput)
	}
	if tc.ToolName != "Edit" || !tc.Terminal.Exit || tc.Terminal.ExitCode == nil || *tc.Terminal.ExitCode != 2 || tc.Terminal.TerminalID != "c1" {
		t.Errorf("meta: %+v %q", tc.Terminal, tc.ToolName)
	}

	up, ok := acp.Decode([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","title":null,"content":null,"locations":[],` +
		`"_meta":{"terminal_output":{"terminal_id":"t9","data":"\u001b[32mok\u001b[0m\n"}}}}}`)).(*acp.ToolCallUpdate)
	if !ok {
		t.Fatal("tool_call_update not decoded")
	}
	if up.Title != nil || up.Kind != nil || *up.Status != "completed" || up.ContentSet || !up.LocationsSet || len(up.Locations) != 0 {
		t.Errorf("update fields: %+v", up.ToolCallFields)
	}
	if tm := up.Terminal; !tm.HasOutput || tm.Output != "\x1b[32mok\x1b[0m\n" || tm.TerminalID != "t9" {
		t.Errorf("terminal output: %+v", tm)
	}
}

// TestDecodeMessages covers requests both ways, notifications and
// responses, with ids kept exactly.
func TestDecodeMessages(t *testing.T) {
	type check func(t *testing.T, ev model.Event)
	tests := []struct {
		in   string
		typ  string
		test check
	}{
		{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true}}}}`, "initialize", func(t *testing.T, ev model.Event) {
			r := ev.(*acp.Initialize)
			if r.ID.Raw() != "0" || string(r.ProtocolVersion) != "1" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`, "session/new", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.NewSession); r.Cwd != "/w" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":"load-1","method":"session/load","params":{"sessionId":"s","cwd":"/w","mcpServers":[]}}`, "session/load", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.LoadSession); r.SessionID != "s" || r.ID.Raw() != `"load-1"` || r.ID.String() != "load-1" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":2.50,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"},{"type":"resource_link","uri":"file:///w/a.go","name":"a.go"}]}}`, "session/prompt", func(t *testing.T, ev model.Event) {
			r := ev.(*acp.Prompt)
			if r.ID.Raw() != "2.50" || len(r.Prompt) != 2 || r.Prompt[1].URI != "file:///w/a.go" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":3,"method":"session/set_mode","params":{"sessionId":"s","modeId":"plan"}}`, "session/set_mode", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.SetMode); r.ModeID != "plan" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`, "session/cancel", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.Cancel); r.SessionID != "s" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c1","title":"rm -rf build"},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"}]}}`, "session/request_permission", func(t *testing.T, ev model.Event) {
			r := ev.(*acp.RequestPermission)
			if r.ToolCall.ToolCallID != "c1" || *r.ToolCall.Title != "rm -rf build" || len(r.Options) != 1 || r.Options[0].Kind != "allow_once" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":8,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/w/a.go","line":3,"limit":10}}`, "fs/read_text_file", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.FSRequest); r.Path != "/w/a.go" || r.Line != 3 || r.Limit != 10 {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":9,"method":"terminal/create","params":{"sessionId":"s","command":"go","args":["test","./..."]}}`, "terminal/create", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.TerminalRequest); r.Command != "go" || len(r.Args) != 2 {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":10,"method":"_zed/hello","params":{"x":1}}`, "_zed/hello", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.OtherRequest); string(r.Params) != `{"x":1}` {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":3}}`, "$/cancel_request", func(t *testing.T, ev model.Event) {
			_ = ev.(*acp.Notification)
		}},
		{`{"jsonrpc":"2.0","id":"a\u0062","result":{"stopReason":"end_turn"}}`, "response", func(t *testing.T, ev model.Event) {
			r := ev.(*acp.Response)
			var res acp.PromptResult
			if r.Decode(&res) != nil || res.StopReason != "end_turn" || r.ID.Raw() != `"a\u0062"` || r.ID.Key() != `"ab"` {
				t.Errorf("%+v %+v", r, res)
			}
		}},
		{`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"boom"}}`, "response", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.Response); r.Error == nil || r.Error.Code != -32603 || r.Error.Message != "boom" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":4,"result":null}`, "response", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.Response); string(r.Result) != "null" {
				t.Errorf("%+v", r)
			}
		}},
		{`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s","prompt":"not blocks"}}`, "session/prompt", func(t *testing.T, ev model.Event) {
			if m := ev.(*acp.Malformed); m.ID.Raw() != "5" {
				t.Errorf("%+v", m)
			}
		}},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"current_mode_update"}}}`, "current_mode_update", func(t *testing.T, ev model.Event) {
			_ = ev.(*acp.Malformed)
		}},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"kind":"plan"}}}`, "session/update", func(t *testing.T, ev model.Event) {
			_ = ev.(*acp.Malformed)
		}},
		{`{"jsonrpc":"2.0"}`, "", func(t *testing.T, ev model.Event) { _ = ev.(*acp.Malformed) }},
		{`{"jsonrpc":"2.0","id":1}`, "response", func(t *testing.T, ev model.Event) { _ = ev.(*acp.Malformed) }},
		{`not json`, "", func(t *testing.T, ev model.Event) { _ = ev.(*model.Unreadable) }},
		{`{"jsonrpc":"2.0","id":1,`, "", func(t *testing.T, ev model.Event) { _ = ev.(*model.Unreadable) }},
		{"\ufeff" + `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"bom"}}`, "session/cancel", func(t *testing.T, ev model.Event) {
			if r := ev.(*acp.Cancel); r.SessionID != "bom" {
				t.Errorf("%+v", r)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			ev := acp.Decode([]byte(tc.in))
			if ev.EventType() != tc.typ {
				t.Fatalf("%s: type %q (%T), want %q", tc.in, ev.EventType(), ev, tc.typ)
			}
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: decoded %#v: %v", tc.in, ev, r)
				}
			}()
			tc.test(t, ev)
		})
	}
}

// TestDecodeDirection keeps the direction a message was recorded in.
func TestDecodeDirection(t *testing.T) {
	r := acp.DecodeDir([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), acp.Recv).(*acp.Response)
	if r.Dir != acp.Recv {
		t.Errorf("dir %q", r.Dir)
	}
	if d := acp.MethodDirection("terminal/output"); d != acp.Recv {
		t.Errorf("terminal/output goes %q", d)
	}
	if d := acp.MethodDirection("session/prompt"); d != acp.Send || acp.Send.Opposite() != acp.Recv {
		t.Errorf("session/prompt goes %q", d)
	}
}
