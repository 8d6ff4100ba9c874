package acp_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// decodeSeeds are messages as agents and clients send them, and as they break them.
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"terminal":true,"_meta":{"terminal_output":true}}}}`,
	`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s","modes":{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}}}`,
	`{"jsonrpc":"2.0","id":"p-2","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a \"q\" \u0000 \ud83d\ude00 \ud800"},"messageId":"m"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"ls","kind":"execute","status":"pending","content":[{"type":"terminal","terminalId":"c"}],"_meta":{"terminal_info":{"terminal_id":"c"}}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"completed","content":[{"type":"diff","path":"/a","oldText":null,"newText":"x"}],"locations":[{"path":"/a","line":null}],"rawOutput":{"ok":true},"_meta":{"terminal_output":{"terminal_id":"c","data":"\u001b[1mhi"},"terminal_exit":{"terminal_id":"c","exit_code":1,"signal":null}}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x","priority":"high","status":"in_progress"}]}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":0.1,"currency":"USD"}}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"session_info_update","title":null,"updatedAt":"yesterday"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"notice","severity":"warning","title":"x"}}}`,
	`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":7}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"outcome":{"outcome":"selected","optionId":"a"}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"terminal/output","params":{"sessionId":"s","terminalId":"t"}}`,
	`{"jsonrpc":"2.0","id":6,"result":{"output":"ok\n","truncated":false,"exitStatus":{"exitCode":0}}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`,
	`{"jsonrpc":"2.0","id":[1],"method":"x"}`,
	`{"jsonrpc":"2.0","method":{"a":1}}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\xff\xfe\"}",
	`{"id":1,"id":2,"result":{}}`,
	"\ufeff{}",
	`[]`, `"x"`, ``, `{`,
}

// FuzzDecode checks that Decode never panics and never returns nil, that
// requests and responses keep their id byte for byte, that only input that
// is not a JSON object is Unreadable, and that every message survives a
// trip through a recording line.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev := acp.DecodeDir(data, acp.Recv)
		if ev == nil {
			t.Fatal("Decode returned nil")
		}
		_ = ev.EventType()
		var id acp.ID
		switch e := ev.(type) {
		case acp.Request:
			id = e.Req().ID
		case *acp.Response:
			id = e.ID
		}
		if !id.IsZero() {
			if !bytes.Contains(data, []byte(id.Raw())) {
				t.Fatalf("id %s is not in the input", id.Raw())
			}
			if !jsontext.Value(id.Raw()).IsValid(jsontext.AllowInvalidUTF8(true)) {
				t.Fatalf("id %q is not one JSON value", id.Raw())
			}
		}
		if _, bad := ev.(*model.Unreadable); !bad {
			trimmed := bytes.TrimPrefix(data, []byte("\ufeff"))
			if !jsontext.Value(trimmed).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
				t.Fatalf("invalid JSON decoded to %T", ev)
			}
		}

		at := time.UnixMilli(1764500000000).UTC()
		line := acp.FormatLine(at, acp.Send, data)
		if bytes.IndexByte(line, '\n') != len(line)-1 {
			t.Fatalf("recording line is not one line: %q", line)
		}
		l, err := acp.ParseLine(line[:len(line)-1])
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if !l.At.Equal(at) || l.Dir != acp.Send {
			t.Fatalf("line %q read back as %+v", line, l)
		}
		lenient := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
		if jsontext.Value(data).IsValid(lenient...) && !bytes.ContainsAny(data, "\r\n") && !bytes.Equal(l.Msg, bytes.Trim(data, " \t")) {
			t.Fatalf("message %q recorded as %q", data, l.Msg)
		}
		if back := acp.DecodeDir(l.Msg, acp.Recv); back.EventType() != ev.EventType() {
			t.Fatalf("recorded message decodes as %q, was %q", back.EventType(), ev.EventType())
		}
	})
}
