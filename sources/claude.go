package sources

import (
	"bytes"
	"encoding/json"
)

// claudeLineTypes are the line types of a Claude Code session file that
// tell one from its first line. AG-UI's types are upper case, so none of
// these is an AG-UI event.
var claudeLineTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "summary": true, "file-history-snapshot": true,
	"queue-operation": true, "progress": true, "attachment": true, "custom-title": true, "ai-title": true,
	"last-prompt": true, "permission-mode": true, "tag": true,
}

// LooksLikeClaudeSession tells from one whole line that it starts a Claude
// Code session file: a known line type with the members Claude Code
// writes beside it (its session, its place in the chain, or a snapshot).
func LooksLikeClaudeSession(line []byte) bool {
	var head struct {
		Type       string          `json:"type"`
		SessionID  string          `json:"sessionId"`
		UUID       string          `json:"uuid"`
		LeafUUID   string          `json:"leafUuid"`
		MessageID  string          `json:"messageId"`
		Snapshot   json.RawMessage `json:"snapshot"`
		ParentUUID json.RawMessage `json:"parentUuid"`
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &head) != nil || !claudeLineTypes[head.Type] {
		return false
	}
	return head.SessionID != "" || head.UUID != "" || head.LeafUUID != "" || len(head.Snapshot) > 0 || len(head.ParentUUID) > 0
}
