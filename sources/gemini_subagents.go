package sources

// This file reads a Gemini CLI session together with its subagents: each
// subagent writes a session file of its own, chats/<session id>/<agent
// id>.jsonl beside the session's (its subagents' subagents too), and the
// session's call that ran it names it by agentId once it is done
// (protocol/gemini, subagent.go). Its lines are read then, whole, and fold
// into the session as the subagent run of that call. Gemini CLI records
// the call only when it is done, so nothing links a subagent still at
// work to its call: a followed session shows a subagent when its call is
// recorded, and gives the records a whole read of its files gives.

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// newGeminiSession is the translator of the session file at path ("" when
// the file is not known: its subagents are not read).
func newGeminiSession(path string, limit int64) *gemini.Translator {
	tr := gemini.New()
	if path == "" {
		return tr
	}
	chats := filepath.Dir(path)
	tr.ReadSubagents(func(agentID string) [][]byte {
		session := tr.Thread()
		if !safeAgentID(session) || !safeAgentID(agentID) {
			return nil
		}
		return completeLines(filepath.Join(chats, session, agentID+".jsonl"), limit)
	})
	return tr
}

// completeLines are the complete lines of the file at path, each at most
// limit bytes long (a longer one is skipped, as in the session).
func completeLines(path string, limit int64) [][]byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	in := bufio.NewReaderSize(f, bufferSize)
	lines := lineReader{in: in}
	var out [][]byte
	for {
		ln, err := lines.next(limit)
		if err == io.EOF {
			return out
		}
		if err != nil {
			return out
		}
		if ln.over || !ln.ended {
			continue
		}
		if text := bytes.TrimSpace(ln.text); len(text) > 0 {
			out = append(out, bytes.Clone(text))
		}
	}
}

// hasGeminiSubagents reports whether the Gemini CLI session file at path
// has a folder of subagents beside it (chats/<its session id>/).
func hasGeminiSubagents(path string, limit int64) bool {
	first := firstLine(path, limit)
	if !LooksLikeGeminiSession(first) {
		return false
	}
	id := gemini.New()
	id.Line(first)
	session := id.Thread()
	if !safeAgentID(session) {
		return false
	}
	st, err := os.Stat(filepath.Join(filepath.Dir(path), session))
	return err == nil && st.IsDir()
}
