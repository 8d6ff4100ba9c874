package sources

import "strconv"

// Format is the shape of an event log (AG-UI, or an ACP recording), as
// detected by NewReader or forced with NewReaderFormat.
type Format int

// The log formats a Reader understands.
const (
	// FormatAuto asks the Reader to detect the format from the first bytes.
	// Reader.Format reports it when the input held nothing to detect.
	FormatAuto Format = iota
	// FormatJSONArray is one JSON array of events, the AG-UI serialization
	// format; a missing closing bracket is accepted (a log still being written).
	FormatJSONArray
	// FormatEventsObject is a JSON object whose member "events" is that array.
	FormatEventsObject
	// FormatJSONL is one JSON event per line.
	FormatJSONL
	// FormatSSE is text/event-stream as an AG-UI server sends it: one event
	// per frame in its data: lines.
	FormatSSE
	// FormatACPRecording is an ACP session as `agentwatch acp --record`
	// keeps it: JSON Lines of JSON-RPC messages with their time and
	// direction (protocol/acp.FormatLine). Its records are ACP ones.
	FormatACPRecording
	// FormatClaude is a Claude Code session file (projects/<cwd>/<id>.jsonl),
	// read as AG-UI records through protocol/claude.
	FormatClaude
	// FormatCodexRollout is a Codex session as Codex keeps it (a rollout:
	// JSON Lines of {"timestamp", "type", "payload"} whose first line is
	// its session_meta), translated into AG-UI records (protocol/codex).
	FormatCodexRollout
	// FormatCopilot is a GitHub Copilot CLI session file
	// (session-state/<id>/events.jsonl), read as AG-UI records through
	// protocol/copilot.
	FormatCopilot
	// FormatGemini is a Gemini CLI session file
	// (~/.gemini/tmp/<project>/chats/session-*.jsonl), translated into
	// AG-UI records (protocol/gemini).
	FormatGemini
)

// String returns the format's short name, as a user would type it.
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatJSONArray:
		return "json-array"
	case FormatEventsObject:
		return "events-object"
	case FormatJSONL:
		return "jsonl"
	case FormatSSE:
		return "sse"
	case FormatACPRecording:
		return "acp-recording"
	case FormatClaude:
		return "claude"
	case FormatCodexRollout:
		return "codex-rollout"
	case FormatCopilot:
		return "copilot"
	case FormatGemini:
		return "gemini"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}
