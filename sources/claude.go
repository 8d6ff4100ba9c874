package sources

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentwatch/agentwatch/model"
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

// claudeReader reads a Claude Code session file: its lines, each turned
// into the AG-UI records protocol/claude makes of it. A last line cut
// short is waited for, as a tail waits: it is no problem, just not there
// yet.
type claudeReader struct {
	lines lineReader
	limit int64
	tr    lineTranslator
	queue []model.Record
	idled bool // the subagents still at work were read, at the end
}

// newClaudeReader reads a session from in; path, when it is the file's,
// finds its subagents' files.
func newClaudeReader(in *bufio.Reader, at position, limit int64, path string) *claudeReader {
	return &claudeReader{lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit, tr: newClaudeSession(path, limit)}
}

func (c *claudeReader) next() (item, error) {
	for len(c.queue) == 0 {
		ln, err := c.lines.next(c.limit)
		if err == io.EOF && !c.idled {
			// The subagents whose calls have no result yet: what they
			// wrote so far.
			c.idled = true
			if id, ok := c.tr.(idler); ok {
				c.queue = id.Idle()
			}
			continue
		}
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, c.limit, lineAt(ln.num))}, nil
		}
		if !ln.ended {
			continue // torn: the rest is still being written
		}
		c.queue = c.tr.Line(ln.text)
	}
	rec := c.queue[0]
	c.queue = c.queue[1:]
	return item{raw: rec.Raw, made: &rec}, nil
}
