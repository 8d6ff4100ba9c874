package agent

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// DefaultBurst is how many updates `burst` sends without a count.
const DefaultBurst = 20000

// maxBurst bounds `burst N` so a typo cannot exhaust memory.
const maxBurst = 1_000_000

// fsRead is `fs <path>`: it asks the client for the file with
// fs/read_text_file and reports the outcome in a read tool call and a
// message. A relative path is appended to the session's cwd without
// cleaning ("../x" becomes "<cwd>/../x"), so the client's confinement sees
// the dot-dot; no path means <cwd>/README.md.
func (t *turn) fsRead(arg string) (acp.StopReason, error) {
	const id = "tc-fs"
	path := arg
	switch {
	case path == "":
		path = t.path("README.md")
	case !filepath.IsAbs(path):
		path = t.s.cwd + string(filepath.Separator) + path
	}
	err := t.send(acp.StartToolCall(id, "Read "+path,
		acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartRawInput(map[string]any{"path": path}),
		acp.WithStartLocations([]acp.ToolCallLocation{loc(path, 0)})))
	if err != nil {
		return "", err
	}
	if !t.caps().Fs.ReadTextFile {
		err := t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent("client did not advertise fs.readTextFile")})))
		if err == nil {
			err = t.message("The client did not advertise fs.readTextFile, so I read nothing.")
		}
		return acp.StopReasonEndTurn, err
	}
	resp, err := t.f.peer().ReadTextFile(t.ctx, acp.ReadTextFileRequest{SessionId: t.s.id, Path: path})
	if cerr := t.clientErr(err); cerr != nil {
		return "", cerr
	}
	if err != nil {
		t.f.opts.Logger.Info("fs/read_text_file refused", "path", path, "err", err)
		err2 := t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent("fs/read_text_file failed: " + err.Error())}),
			acp.WithUpdateRawOutput(map[string]any{"error": err.Error()})))
		if err2 == nil {
			err2 = t.message(fmt.Sprintf("fs/read_text_file %s failed: %v", path, err))
		}
		return acp.StopReasonEndTurn, err2
	}
	err = t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateContent([]acp.ToolCallContent{textContent(resp.Content)}),
		acp.WithUpdateRawOutput(map[string]any{"bytes": len(resp.Content)})))
	if err == nil {
		err = t.message(fmt.Sprintf("Read %d bytes from %s:\n\n```\n%s\n```", len(resp.Content), path, resp.Content))
	}
	return acp.StopReasonEndTurn, err
}

// burst is `burst [N]`: a tool_call, then N numbered updates as fast as the
// connection takes them (even i: agent_message_chunk with text "<i> ", all
// of one message; odd i: tool_call_update with rawOutput {"seq": i}), then
// the completing tool_call_update: N+2 updates in all. It ignores
// Options.Delay.
func (t *turn) burst(arg string) (acp.StopReason, error) {
	n, bad := countArg("burst", arg, DefaultBurst)
	if bad != "" {
		return acp.StopReasonEndTurn, t.message(bad)
	}
	const id = "tc-burst"
	t.delay = 0
	err := t.send(acp.StartToolCall(id, fmt.Sprintf("Burst of %d updates", n),
		acp.WithStartKind(acp.ToolKindOther), acp.WithStartStatus(acp.ToolCallStatusInProgress)))
	if err != nil {
		return "", err
	}
	msgID := acp.Ptr(newUUID())
	for i := range n {
		var u acp.SessionUpdate
		if i%2 == 0 {
			u = acp.SessionUpdate{AgentMessageChunk: &acp.SessionUpdateAgentMessageChunk{
				Content: acp.TextBlock(strconv.Itoa(i) + " "), MessageId: msgID,
			}}
		} else {
			u = acp.UpdateToolCall(id, acp.WithUpdateRawOutput(map[string]any{"seq": i}))
		}
		if err := t.send(u); err != nil {
			return "", err
		}
	}
	err = t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateRawOutput(map[string]any{"sent": n})))
	return acp.StopReasonEndTurn, err
}

// countArg is a script's count argument: def when arg is empty. bad says
// what is wrong, in the agent's reply, when arg is not a count from 0 to
// maxBurst.
func countArg(script, arg string, def int) (n int, bad string) {
	if arg == "" {
		return def, ""
	}
	v, err := strconv.Atoi(arg)
	if err != nil || v < 0 || v > maxBurst {
		return 0, fmt.Sprintf("%s: want a count from 0 to %d, got %q", script, maxBurst, arg)
	}
	return v, ""
}

// DefaultCalls is how many tool calls `calls` makes without a count.
const DefaultCalls = 5000

// calls is `calls [N]`: N execute tool calls one after another as fast as
// the connection takes them, each started in_progress (tc-call-<i>,
// "echo <i>"), then completed with the text "out <i>" (every fifth failed
// instead), then a message of its own "did <i>": 3N updates, end_turn. It
// ignores Options.Delay. A session that runs long, step after step.
func (t *turn) calls(arg string) (acp.StopReason, error) {
	n, bad := countArg("calls", arg, DefaultCalls)
	if bad != "" {
		return acp.StopReasonEndTurn, t.message(bad)
	}
	t.delay = 0
	for i := range n {
		id, cmd := fmt.Sprintf("tc-call-%d", i), fmt.Sprintf("echo %d", i)
		err := t.send(acp.StartToolCall(acp.ToolCallId(id), cmd,
			acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"command": cmd})))
		if err != nil {
			return "", err
		}
		status := acp.ToolCallStatusCompleted
		if i%5 == 2 {
			status = acp.ToolCallStatusFailed
		}
		err = t.send(acp.UpdateToolCall(acp.ToolCallId(id), acp.WithUpdateStatus(status),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent(fmt.Sprintf("out %d", i))})))
		if err == nil {
			err = t.message(fmt.Sprintf("did %d", i))
		}
		if err != nil {
			return "", err
		}
	}
	return acp.StopReasonEndTurn, nil
}

// slow is `slow`: an execute tool call, then one update every
// Options.SlowInterval (default 200 ms) for Options.SlowTicks (default 50):
// agent_message_chunk "tick <i>\n", every fifth a tool_call_update with
// rawOutput {"elapsed_ms": ...}; then completed and end_turn. On cancel it
// still sends a failed tool_call_update ("interrupted") before answering
// `cancelled`, as agents may report after a cancel.
func (t *turn) slow(string) (acp.StopReason, error) {
	const id = "tc-slow"
	err := t.send(acp.StartToolCall(id, "sleep 10",
		acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartRawInput(map[string]any{"command": "sleep 10"})))
	if err != nil {
		return "", err
	}
	msgID := acp.Ptr(newUUID())
	interval := t.f.opts.SlowInterval
	for i := range t.f.opts.SlowTicks {
		if err := t.pause(interval); err != nil {
			ferr := t.f.sendUpdate(t.ctx, t.s, acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
				acp.WithUpdateContent([]acp.ToolCallContent{textContent("interrupted")})))
			if ferr != nil {
				return "", ferr
			}
			return "", err
		}
		var u acp.SessionUpdate
		if i%5 == 4 {
			u = acp.UpdateToolCall(id, acp.WithUpdateRawOutput(map[string]any{"elapsed_ms": (time.Duration(i+1) * interval).Milliseconds()}))
		} else {
			u = acp.SessionUpdate{AgentMessageChunk: &acp.SessionUpdateAgentMessageChunk{
				Content: acp.TextBlock(fmt.Sprintf("tick %d\n", i)), MessageId: msgID,
			}}
		}
		if err := t.send(u); err != nil {
			return "", err
		}
	}
	return acp.StopReasonEndTurn, t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
}

// crash is `crash`: a message and an in_progress tool call, the session
// saved, a line on the log, then Options.Exit(CrashExitCode) with the
// prompt unanswered.
func (t *turn) crash(string) (acp.StopReason, error) {
	err := t.message("About to crash on purpose.")
	if err == nil {
		err = t.send(acp.StartToolCall("tc-crash", "kill -9 $$",
			acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress)))
	}
	if err != nil {
		return "", err
	}
	if err := t.f.opts.Store.save(t.s); err != nil {
		t.f.opts.Logger.Error("save session", "err", err)
	}
	t.f.opts.Logger.Error("crashing on purpose", "exitCode", CrashExitCode)
	t.f.opts.Exit(CrashExitCode)
	// In-process, Exit returns after closing the pipes; the turn ends with
	// the connection.
	<-t.ctx.Done()
	return "", errCancelled
}

// maxHuge bounds `huge N`, so a typo cannot exhaust memory.
const maxHuge = 64 << 20

// huge is `huge N`: one agent_message_chunk whose text is N bytes ("x"
// repeated), a single JSON-RPC line a little longer than N, then
// end_turn. It tests a client's limit on the length of a line.
func (t *turn) huge(arg string) (acp.StopReason, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 || n > maxHuge {
		return acp.StopReasonEndTurn, t.message(fmt.Sprintf("huge: want a byte count from 0 to %d, got %q", maxHuge, arg))
	}
	return acp.StopReasonEndTurn, t.message(strings.Repeat("x", n))
}

// refuse is `refuse`: one message, then stopReason refusal.
func (t *turn) refuse(string) (acp.StopReason, error) {
	return acp.StopReasonRefusal, t.message("I can't help with that request.")
}
