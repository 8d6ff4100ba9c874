package agent

// Usage is the fixture-agent binary's --help text.
const Usage = `fixture-agent: a scripted ACP v1 agent on stdio, for testing ACP clients.

Usage: fixture-agent [--help]

It reads JSON-RPC from stdin, writes it to stdout and logs to stderr. No
model, no network, no credentials: what it does is chosen by the prompt.

Prompt commands (first word, case-insensitive, an optional leading "/"):
  all            (also any other text) every update kind: session_info_update,
                 agent_thought_chunks, plan, agent_message_chunks (messageId),
                 tool calls of all ten kinds (read, search, edit, edit of a new
                 file, delete (fails), move, execute, think, fetch, switch_mode +
                 current_mode_update, other with a PNG), an updated plan, a
                 tool_call_update for a never-announced tool call, usage_update,
                 an unknown kind "fixture_unknown_kind", then the permission
                 flow, a final plan and message, end_turn. Uses fs/read_text_file
                 and fs/write_text_file (README.md, NOTES.md, config.yaml in the
                 session cwd) when the client offers them; execute output goes
                 through Zed's _meta.terminal_* when the client sets
                 clientCapabilities._meta.terminal_output, else a console fence.
  permission     only the permission flow: an edit of config.yaml and
                 session/request_permission (allow-once, allow-always,
                 reject-once, reject-always). Allow: completed. Reject: failed.
                 Cancelled: stopReason cancelled.
  fs PATH        fs/read_text_file PATH (relative: "<cwd>/PATH", not cleaned);
                 the content or the error comes back as a message.
  burst [N]      a tool_call, N updates as fast as possible (default 20000;
                 even: agent_message_chunk "<i> ", odd: tool_call_update
                 rawOutput {"seq": i}), a completing update, end_turn.
  calls [N]      N execute tool calls (default 5000), each completed with
                 "out <i>" (every fifth failed) and followed by a message
                 "did <i>", as fast as possible; end_turn.
  slow           an update every 200 ms for about 10 s; cancel it mid-way.
  crash          a message and a tool call, then the process exits with
                 status 3 without answering the prompt.
  refuse         one message, then stopReason refusal.
  huge N         one agent_message_chunk of N bytes of text (at most 64 MiB),
                 a JSON-RPC line a little longer than N; end_turn.

Sessions: modes "code" and "plan"; available_commands_update after each
session/new and session/load response; session/list; session/load replays
the stored history, split around the response (_meta.acptest in the
response counts the updates before and after it).

Environment:
  ACPTEST_AUTH=1          require authenticate with method "fixture-token";
                          session methods answer -32000 until then
  ACPTEST_STORE=DIR       persist sessions as DIR/<sessionId>.json so another
                          process can list and load them
  ACPTEST_LOAD_SPLIT=half|before|after
                          where session/load replays history (default half)
  ACPTEST_DELAY=DURATION  pause after each update of all and permission
  ACPTEST_NO_LOAD=1       advertise loadSession false
  ACPTEST_INIT_ERROR=MSG  log MSG on stderr and fail initialize with it
                          (error -32603), as an agent that cannot start
`
