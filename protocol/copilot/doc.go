// Package copilot turns the session files GitHub Copilot CLI writes
// (~/.copilot/session-state/<sessionId>/events.jsonl) into AG-UI events, so
// that every view, fold, replay and check of agentwatch works on a Copilot
// session as it does on an AG-UI log.
//
// A session file is one JSON event a line, {type, id, parentId, timestamp,
// agentId?, ephemeral?, data}, the shapes github/copilot-sdk generates from
// its session-events schema. A Translator reads the lines in order and
// keeps only what a later line needs (the open run, the calls waiting for
// their completion, the subagents running, the session's description); it
// knows no files. Each record it returns names its thread
// (model.Record.Thread): the session's id.
//
// The mapping: session.start names the thread and, with the model and
// folder changes that follow, makes its state (a STATE_SNAPSHOT: folder,
// branch, repository, model, version). A user's message starts a run; the
// run finishes at the end of the agent's turn that asked for no more tools,
// at the next message, at an abort (cancelled) or when the session shuts
// down. The agent's messages are text messages and its reasoning is
// reasoning. A tool.execution_start is a step of the category Copilot's
// own tools have (tools.go), and its tool.execution_complete (paired by
// toolCallId, in any order) the step's result: failed when Copilot says
// the call did not succeed, or when a command exited non-zero. A subagent
// (subagent.started … completed or failed) is an AG-UI subagent run inside
// the run, named after the call that spawned it; the events its agent
// writes (those carrying agentId) are tagged with it. A compaction is a
// CUSTOM event named "compaction" holding its summary. Ephemeral lines
// (which Copilot does not keep on disk) and lines of other types are
// skipped: newer builds add types.
package copilot
