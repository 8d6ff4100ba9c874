package hostile

import (
	"fmt"
	"io"
)

// ACPTurn writes an ACP recording (agentwatch acp --record's lines) of
// one long turn: tool calls first to first+n-1, each followed by a message
// of its own; every fifth call fails. The session's start comes with call
// 0 only, so turns with distinct numbers appended one after another make
// one session that keeps growing.
func ACPTurn(w io.Writer, first, n int) error {
	b := &writer{w: w}
	t := 1764500000000 + 30*first
	line := func(dir, msg string) {
		t += 10
		b.ev(fmt.Sprintf(`{"t":%d,"dir":%q,"msg":%s}`, t, dir, msg))
	}
	update := func(format string, args ...any) {
		line("recv", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":`+fmt.Sprintf(format, args...)+`}}`)
	}
	if first == 0 {
		line("send", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
		line("recv", `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}`)
		line("send", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"go"}]}}`)
	}
	for i := first; i < first+n; i++ {
		status := "completed"
		if i%5 == 2 {
			status = "failed"
		}
		update(`{"sessionUpdate":"tool_call","toolCallId":"c%d","title":"echo %d","kind":"execute","status":"pending","rawInput":{"command":"echo %d"}}`, i, i, i)
		update(`{"sessionUpdate":"tool_call_update","toolCallId":"c%d","status":%q,"content":[{"type":"content","content":{"type":"text","text":"out %d"}}]}`, i, status, i)
		update(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"did %d"},"messageId":"m%d"}`, i, i)
	}
	return b.err
}
