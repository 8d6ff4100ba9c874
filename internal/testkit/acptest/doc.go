// Package acptest provides a scripted ACP v1 agent for testing ACP clients
// without a model, a network or credentials.
//
// # Pieces
//
//   - internal/testkit/acptest/agent: the agent, on the agent side of
//     github.com/coder/acp-go-sdk v0.13.0. agent.Serve runs it over any
//     reader and writer; tests drive it in-process over io.Pipes.
//   - internal/testkit/acptest/cmd/fixture-agent: the same agent on stdio. Logs go
//     to stderr, stdout carries only JSON-RPC. --help prints the commands.
//   - Build (this package): compiles fixture-agent once per test binary
//     and returns its path for exec.Command.
//
// # Environment of the binary
//
//	ACPTEST_AUTH=1          initialize offers authMethods [{id:"fixture-token"}];
//	                        session/new, load, list, set_mode and prompt answer
//	                        -32000 until authenticate {methodId:"fixture-token"}
//	                        (another methodId: -32602)
//	ACPTEST_STORE=DIR       sessions also persist as DIR/<sessionId>.json, so a
//	                        second process can session/list and session/load them
//	                        (without it they live in the process's memory)
//	ACPTEST_LOAD_SPLIT=half|before|after
//	                        where session/load replays history (default half)
//	ACPTEST_DELAY=200ms     pause after each update of `all` and `permission`
//	ACPTEST_NO_LOAD=1       advertise loadSession false (an agent that cannot replay)
//	ACPTEST_INIT_ERROR=MSG  initialize logs MSG on stderr and answers -32603 MSG
//	                        (an agent that cannot start: no key, no model)
//
// # Session methods
//
// initialize answers protocolVersion 1, agentCapabilities {loadSession:
// true, promptCapabilities {image: true}, sessionCapabilities {list: {}}}
// and agentInfo acptest-fixture. It remembers clientCapabilities: fs
// readTextFile/writeTextFile and _meta.terminal_output change what `all`
// does.
//
// session/new (cwd must be absolute) answers a new "fx-<uuid>" id, modes
// `code` (current) and `plan`, and _meta.acptest {updatesBeforeResponse:
// 0, updatesAfterResponse: 1}; right after the response line it sends
// available_commands_update (all, permission, fs, burst, calls, slow, crash,
// refuse, huge; a prompt "/burst 100" works like "burst 100").
//
// session/set_mode `code` or `plan` sends current_mode_update before
// answering; another mode id answers -32602.
//
// session/list answers the sessions of the requested cwd (all without
// one), newest first, with title ("Fixture: " and the first prompt's first
// 40 characters) and updatedAt, 50 a page (nextCursor is an offset).
//
// session/load of an unknown id answers -32002. Otherwise it replays the
// stored history: every update the session sent (not the
// available_commands_updates), with each prompt recorded as
// user_message_chunks first, byte for byte as first sent. The split
// around the response is observable on the wire and announced in the
// response's _meta.acptest:
//
//	history of H updates, ACPTEST_LOAD_SPLIT=half (default):
//	  session/update × ceil(H/2)         history[0 : ceil(H/2)]
//	  response {modes, _meta.acptest {updatesBeforeResponse: ceil(H/2),
//	            updatesAfterResponse: H-ceil(H/2)+1}}
//	  session/update × H-ceil(H/2)       the rest of the history
//	  session/update available_commands_update
//	before: all H before the response (Claude, goose, Codex);
//	after:  none before, all H after (Gemini CLI's floating promise).
//
// The after part starts only once the response line is written (a hook on
// the agent's writer), so it is deterministic, and it can interleave with
// the updates of a prompt the client sends right away, as with Gemini.
// One `all` turn stores H = 48: a half split is 24 before, 25 after.
//
// session/cancel cancels the running prompt: it answers stopReason
// `cancelled`, and a pending session/request_permission is withdrawn (the
// SDK sends $/cancel_request for it). session/resume, session/close and
// session/set_config_option answer -32601.
//
// # Prompt commands
//
// The first word of the prompt's text picks a script; any other text runs
// `all`. Tool call ids are fixed ("tc-read", "tc-exec", ...), message ids
// are UUIDs, paths are under the session's cwd.
//
// all: 47 updates, then end_turn:
//
//	session_info_update        title, updatedAt
//	agent_thought_chunk × 3    one messageId
//	plan                       4 entries: in_progress, pending, pending, pending
//	agent_message_chunk × 3    one messageId
//	read   tc-read       tool_call pending (README.md:1, rawInput), update
//	                     in_progress, fs/read_text_file README.md line 1 limit 20
//	                     if offered, update completed with the text (failed
//	                     with the error if the client refused), rawOutput
//	search tc-search     tool_call in_progress; update completed with 3
//	                     locations (path+line), text, rawOutput.matches
//	edit   tc-edit       tool_call pending with diff oldText/newText of
//	                     main.go:12; in_progress; completed
//	edit   tc-newfile    tool_call with diff NOTES.md and no oldText field;
//	                     fs/write_text_file NOTES.md if offered; update (sent
//	                     raw) with the diff and explicit "oldText": null
//	delete tc-delete     tool_call (location without line); update FAILED
//	move   tc-move       tool_call with 2 locations; completed
//	execute tc-exec      with _meta.terminal_output: tool_call with content
//	                     {type: terminal, terminalId: "tc-exec"} and
//	                     _meta.terminal_info {terminal_id, cwd}; 2 updates
//	                     with _meta.terminal_output {terminal_id, data} (ANSI
//	                     colour, \r\n); completed with _meta.terminal_exit
//	                     {terminal_id, exit_code: 0, signal: null}.
//	                     Without it: tool_call; 2 updates whose text content
//	                     is the output so far in a ```console fence; completed
//	think  tc-think      tool_call (main_test.go:27); completed with text
//	fetch  tc-fetch      tool_call (no locations); completed with text and a
//	                     resource_link
//	switch_mode tc-mode  tool_call; completed; current_mode_update to the
//	                     other mode (plan for a new session)
//	other  tc-image      tool_call; completed with an image block (8×8 PNG)
//	                     and a caption
//	plan                       completed, completed, in_progress, pending
//	tool_call_update tc-ghost  completed, never announced by a tool_call
//	usage_update               used 48213, size 200000, cost 0.42 USD
//	fixture_unknown_kind       sent raw; has a `content` text block
//	permission flow            (below)
//	plan                       all completed
//	agent_message_chunk × 3
//	session_info_update        updatedAt
//
// permission: the permission flow alone, then end_turn:
//
//	tool_call tc-permission   edit config.yaml:1, pending, diff
//	session/request_permission options allow-once (allow_once),
//	                          allow-always (allow_always), reject-once
//	                          (reject_once), reject-always (reject_always)
//	selected allow-*:   update in_progress, fs/write_text_file config.yaml if
//	                    offered, update completed (rawOutput.written)
//	selected reject-*:  update failed with a text, agent_message_chunk
//	cancelled, or session/cancel while waiting: no more updates, stopReason
//	                    cancelled (the tool call stays pending)
//
// fs PATH: tool_call tc-fs (read, location PATH), fs/read_text_file PATH,
// then completed with the content and a message quoting it, or failed
// with the error and a message "fs/read_text_file PATH failed: ...". A
// relative PATH becomes "<cwd>/PATH" without cleaning, so "../x" reaches
// the client as "<cwd>/../x"; no PATH means <cwd>/README.md. Without
// fs.readTextFile it says so and reads nothing. Ends with end_turn.
//
// burst [N]: tool_call tc-burst, then N updates with no pause (i even:
// agent_message_chunk "<i> " of one messageId; i odd: tool_call_update
// tc-burst rawOutput {"seq": i}), then tool_call_update completed:
// N+2 updates, end_turn. N defaults to 20000, at most 1,000,000.
//
// calls [N]: for each i below N, tool_call tc-call-<i> (execute, "echo <i>",
// in_progress), tool_call_update completed with the text "out <i>" (failed
// when i%5 == 2), and an agent_message_chunk "did <i>" of its own
// messageId, with no pause: 3N updates, end_turn. N defaults to 5000, at
// most 1,000,000.
//
// slow: tool_call tc-slow (execute "sleep 10"), then every 200 ms for 50
// ticks an agent_message_chunk "tick <i>\n" (every fifth tick a
// tool_call_update rawOutput {"elapsed_ms"}), completed, end_turn. On
// session/cancel: tool_call_update failed "interrupted", then stopReason
// cancelled.
//
// crash: agent_message_chunk, tool_call tc-crash in_progress, a log line
// on stderr, then the process exits with status 3 and the prompt is never
// answered. The session is saved first, so a later load shows the
// interrupted turn.
//
// refuse: one agent_message_chunk, then stopReason refusal.
//
// huge N: one agent_message_chunk whose text is N bytes of "x" (at most
// 64 MiB), so one JSON-RPC line a little longer than N, then end_turn. A
// client's limit on a line's length is met with it.
//
// # How the agent sends what the SDK cannot
//
// The SDK's typed API has no way to send an unknown update kind or an
// explicit null the struct omits. The agent hands the SDK a writer of its
// own (agent/wire.go) that serialises every Write with a mutex; the SDK
// writes each message as one whole line in one Write, so lines the agent
// writes itself through the same writer never interleave with the SDK's.
// The same writer runs a hook after a given response line, which is how
// history and available_commands_update follow the session/load and
// session/new responses.
//
// # Client-side caveat (Go SDK v0.13.0)
//
// A client on the Go SDK queues at most 1024 notifications between its
// reader and its handler and closes the connection when the queue is
// full. A handler that only appends to a slice is not enough against this
// agent: its reader parses envelopes faster than the handler decodes
// updates, so a 20,000-update burst or replay overflows it (here: every
// in-process load replay, and a live burst over a pipe under -race). The tests hold back reading
// while too many notifications wait (see gate in agent/client_test.go).
package acptest
