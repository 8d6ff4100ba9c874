package sources

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Resembles says what a file that gave no event looks like, from its name
// and first bytes, so that a user learns what they opened rather than
// meeting an empty result: another agent's session store, a file that
// sits beside a session, or else what its first JSON object holds. It is
// "" when the head says nothing at all.
func Resembles(name string, head []byte) string {
	base := filepath.Base(name)
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return "an SQLite database (opencode, Cursor and Goose keep their sessions so), which agentwatch does not read"
	case base == ".aider.chat.history.md" || bytes.HasPrefix(trimmed, []byte("# aider chat started at")):
		return "Aider's chat history (Markdown), which agentwatch does not read"
	case base == "api_conversation_history.json" || base == "ui_messages.json" || base == "task_metadata.json":
		return "a task file of Cline or Roo Code, which agentwatch does not read"
	case base == "workspace.yaml":
		return "a Copilot CLI session's description; its events are in events.jsonl beside it"
	case strings.HasSuffix(base, ".meta.json") && bytes.Contains(head, []byte(`"agentType"`)):
		session := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(name)))) + string(filepath.Separator) + filepath.Base(filepath.Dir(filepath.Dir(name))) + ".jsonl"
		return "the description of a Claude Code subagent, which agentwatch reads with its session (" + session + ")"
	}
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return ""
	}
	members := firstMembers(trimmed)
	has := func(names ...string) bool {
		for _, n := range names {
			if !slices.Contains(members, n) {
				return false
			}
		}
		return true
	}
	switch {
	case has("sessionId", "projectHash", "messages"):
		return "a Gemini CLI session saved whole as one .json file (versions before JSON Lines), which agentwatch does not read; newer versions write the .jsonl files it does"
	case has("role", "content") && trimmed[0] == '[':
		return "a list of chat messages with no events (role and content), which agentwatch does not read as a log"
	case len(members) > 0:
		shown := members[:min(len(members), 6)]
		return "JSON whose first object has " + strings.Join(quoteAll(shown), ", ") + ": no AG-UI event (each has a \"type\"), nor a session file of an agent agentwatch reads"
	}
	return ""
}

// firstMembers are the member names of the first JSON object in b (in a
// list, the list's first element), as far as b goes.
func firstMembers(b []byte) []string {
	b = bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("[")), " \t\r\n")
	d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	var out []string
	for len(out) < 64 {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			break
		}
		out = append(out, tok.String())
		if d.SkipValue() != nil {
			break
		}
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		b, _ := json.Marshal(s)
		out[i] = string(b)
	}
	return out
}
