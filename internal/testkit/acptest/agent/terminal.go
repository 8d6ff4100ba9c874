package agent

import (
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// testCommand is the command toolExecute pretends to run, and testOutput
// its output in two chunks, with ANSI colour as a real terminal shows it.
const testCommand = "go test ./..."

var testOutput = []string{
	"\x1b[1m=== RUN\x1b[0m   TestRetry\r\n",
	"\x1b[32m--- PASS\x1b[0m: TestRetry (0.01s)\r\n\x1b[32mok\x1b[0m  \texample.com/fixture\t0.012s\r\n",
}

// toolExecute runs the tests the way Claude's and Codex's adapters report a
// command they ran themselves.
//
// If the client advertised `clientCapabilities._meta.terminal_output: true`
// (Zed's extension): the tool_call has `terminal` content whose terminalId
// is the tool call id plus `_meta.terminal_info`, each output chunk is a
// tool_call_update with `_meta.terminal_output`, and the completing update
// carries `_meta.terminal_exit`. Otherwise each update replaces the content
// with the output so far in a ```console fence (as Codex does).
func (t *turn) toolExecute() error {
	const id = "tc-exec"
	start := acp.StartToolCall(id, "Run "+testCommand,
		acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartRawInput(map[string]any{"command": testCommand, "cwd": t.s.cwd}))
	done := acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateRawOutput(map[string]any{"exit_code": 0, "stdout": strings.Join(testOutput, "")}))

	if !t.f.terminalMeta() {
		if err := t.send(start); err != nil {
			return err
		}
		var so strings.Builder
		for _, chunk := range testOutput {
			so.WriteString(chunk)
			fence := "```console\n$ " + testCommand + "\n" + so.String() + "```"
			if err := t.send(acp.UpdateToolCall(id, acp.WithUpdateContent([]acp.ToolCallContent{textContent(fence)}))); err != nil {
				return err
			}
		}
		return t.send(done)
	}

	start.ToolCall.Content = []acp.ToolCallContent{acp.ToolTerminalRef(id)}
	start.ToolCall.Meta = map[string]any{"terminal_info": map[string]any{"terminal_id": id, "cwd": t.s.cwd}}
	if err := t.send(start); err != nil {
		return err
	}
	for _, chunk := range testOutput {
		u := acp.UpdateToolCall(id)
		u.ToolCallUpdate.Meta = map[string]any{"terminal_output": map[string]any{"terminal_id": id, "data": chunk}}
		if err := t.send(u); err != nil {
			return err
		}
	}
	done.ToolCallUpdate.Meta = map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0, "signal": nil}}
	return t.send(done)
}
