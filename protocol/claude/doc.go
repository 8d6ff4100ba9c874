// Package claude turns Claude Code's session files into AG-UI events, so
// that every view, fold, replay and check of agentwatch works on a session
// as on an AG-UI log.
//
// Claude Code appends one JSON object per line to
// projects/<encoded cwd>/<sessionId>.jsonl. An assistant response is split
// over several lines that share message.id, one content block each; a tool
// result comes back in a user line whose toolUseResult holds the tool's
// own output. A Translator reads those lines and keeps the little it must
// remember between them (the open run, the calls waiting for results, the
// run each line belongs to), so it gives the same records however the lines
// are cut into reads. It knows no files, like protocol/otel.
package claude
