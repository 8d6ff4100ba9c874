// Package codex turns the rollout files OpenAI's Codex CLI writes
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl) into AG-UI events, so
// that every view, fold, replay and check of agentwatch works on a Codex
// session as it does on an AG-UI log.
//
// A rollout is one session: one line per thing that happened, each
// {"timestamp", "type", "payload"}. A Translator reads the lines in order
// and keeps only what a later line needs (the open turn, the tool calls
// waiting for their output, the session's description); it knows no files.
// Each record it returns names its thread (model.Record.Thread): the
// session's id.
//
// The mapping: session_meta names the thread and, with each turn_context,
// makes its state (a STATE_SNAPSHOT: folder, branch, originator, model); a
// turn (task_started … task_complete) is a run, one that turn_aborted
// ends is cancelled, with what was still running; a function_call,
// custom_tool_call or local_shell_call is a step, of the category Codex's
// own tools have (tools.go), and its output (paired by call_id, in any
// order) is the step's result, failed when the output's header says the
// command exited non-zero; apply_patch is an edit whose arguments hold its
// patch as a unified diff; a web_search_call is a search step; the user's
// and the agent's messages are text messages (developer messages and the
// context Codex adds are not); reasoning summaries are reasoning; a
// compaction is a CUSTOM event named "compaction". Lines and items of
// other types are skipped: newer builds add types.
//
// A thread the session spawns (spawn_agent) writes a rollout of its own;
// SubagentLine translates its lines as a subagent run under the spawning
// call (subagent.go). Finding that rollout and placing its lines among
// the session's is the reader's work (sources).
package codex
