package sources

// This file reads a Claude Code session together with its subagents: each
// subagent writes a file of its own beside the session
// (<sessionId>/subagents/agent-<id>.jsonl with agent-<id>.meta.json, or,
// in older versions, agent-<id>.jsonl in the project's folder), and its
// lines fold into the session as the subagent run of the call that
// started it.
//
// Where a subagent's lines go: all of them before the result of its call
// (a subagent ends before its call has a result), so a session read whole
// gives the same records whenever it is read. While the call runs, a tail
// also hands out the lines written so far each time it has read the
// session to its end (Idle), so a subagent is seen as it works.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/claude"
)

// maxSubagentFiles bounds the subagent files a session keeps track of.
const maxSubagentFiles = 4096

// claudeSession is the lineTranslator of a Claude Code session file that
// reads its subagents' files too.
type claudeSession struct {
	tr *claude.Translator
	// own is the session's own folder (<project>/<sessionId>) and project
	// the folder the session file is in.
	own, project string
	subs         map[string]*subagentFile // by agent id
	limit        int64
}

// subagentFile is one subagent's file and how far it was read.
type subagentFile struct {
	meta    claude.Subagent
	path    string
	off     int64
	partial []byte
	ended   bool // its call has its result: nothing more is read
}

// newClaudeSession is the translator of the session file at path ("" when
// the file is not known: its subagents are not read).
func newClaudeSession(path string, limit int64) lineTranslator {
	if path == "" {
		return claude.New()
	}
	return &claudeSession{tr: claude.New(), own: strings.TrimSuffix(path, ".jsonl"), project: filepath.Dir(path),
		subs: map[string]*subagentFile{}, limit: limit}
}

// hasSubagentFolder reports whether the Claude Code session file at path
// has a folder of subagents beside it.
func hasSubagentFolder(path string) bool {
	st, err := os.Stat(filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents"))
	return err == nil && st.IsDir()
}

// Line translates one line of the session, after the whole of each
// subagent whose call the line gives its result.
func (s *claudeSession) Line(b []byte) []model.Record {
	out := s.endedSubagents(b)
	return append(out, s.tr.Line(b)...)
}

// Idle hands out what the subagents still at work have written since:
// those whose .meta.json names the call that started them (any other is
// read when its call has its result, which names it).
func (s *claudeSession) Idle() []model.Record {
	s.discover()
	var out []model.Record
	for _, f := range s.ordered() {
		if !f.ended && f.meta.ToolUseID != "" {
			out = append(out, s.read(f)...)
		}
	}
	return out
}

// endedSubagents reads to their end the subagents whose calls line b
// gives results of (a user line whose toolUseResult names an agentId).
func (s *claudeSession) endedSubagents(b []byte) []model.Record {
	if !bytes.Contains(b, []byte(`"agentId"`)) || !bytes.Contains(b, []byte(`"toolUseResult"`)) {
		return nil
	}
	var l struct {
		Result struct {
			AgentID string `json:"agentId"`
		} `json:"toolUseResult"`
		Message struct {
			Content []struct {
				ToolUseID string `json:"tool_use_id"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(b, &l) != nil || l.Result.AgentID == "" || !safeAgentID(l.Result.AgentID) {
		return nil
	}
	f := s.subagent(l.Result.AgentID)
	if f == nil || f.ended {
		return nil
	}
	if f.meta.ToolUseID == "" && f.off == 0 {
		// No .meta.json (an older session): the result says whose call
		// it was.
		for _, c := range l.Message.Content {
			if c.ToolUseID != "" {
				f.meta.ToolUseID = c.ToolUseID
				break
			}
		}
	}
	out := s.read(f)
	if len(f.partial) > 0 {
		// Its last line, if it had no end, is all there will be.
		out = append(out, s.subLine(f, f.partial)...)
		f.partial = nil
	}
	f.ended = true
	return out
}

// subagent is the file of agent id: found by its id when not known yet
// (its folder, then the project's folder for an older session).
func (s *claudeSession) subagent(id string) *subagentFile {
	if f, ok := s.subs[id]; ok {
		return f
	}
	s.discover()
	if f, ok := s.subs[id]; ok {
		return f
	}
	flat := filepath.Join(s.project, "agent-"+id+".jsonl")
	if st, err := os.Stat(flat); err == nil && st.Mode().IsRegular() {
		return s.track(flat, claude.Subagent{ID: id})
	}
	return nil
}

// discover finds subagent files not known yet in the session's folder
// (subagents/, and subagents/workflows/<run>/ for a workflow's agents).
func (s *claudeSession) discover() {
	dir := filepath.Join(s.own, "subagents")
	s.discoverIn(dir)
	runs, _ := os.ReadDir(filepath.Join(dir, "workflows"))
	for _, r := range runs {
		if r.IsDir() {
			s.discoverIn(filepath.Join(dir, "workflows", r.Name()))
		}
	}
}

func (s *claudeSession) discoverIn(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "agent-") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		id := strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl")
		if _, ok := s.subs[id]; ok || !safeAgentID(id) {
			continue
		}
		p := filepath.Join(dir, name)
		meta, _ := os.ReadFile(strings.TrimSuffix(p, ".jsonl") + ".meta.json")
		s.track(p, claude.ReadSubagent(id, meta))
	}
}

func (s *claudeSession) track(path string, meta claude.Subagent) *subagentFile {
	if len(s.subs) >= maxSubagentFiles {
		return nil
	}
	f := &subagentFile{meta: meta, path: path}
	s.subs[meta.ID] = f
	return f
}

// ordered are the known subagents, outer ones first (a nested subagent's
// call is in its parent's lines), then by id.
func (s *claudeSession) ordered() []*subagentFile {
	out := make([]*subagentFile, 0, len(s.subs))
	for _, f := range s.subs {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *subagentFile) int {
		if a.meta.SpawnDepth != b.meta.SpawnDepth {
			return a.meta.SpawnDepth - b.meta.SpawnDepth
		}
		return strings.Compare(a.meta.ID, b.meta.ID)
	})
	return out
}

// read translates the complete lines f's file has past what was read.
func (s *claudeSession) read(f *subagentFile) []model.Record {
	h, err := os.Open(f.path)
	if err != nil {
		return nil
	}
	defer h.Close()
	var out []model.Record
	buf := make([]byte, 64<<10)
	for {
		n, err := h.ReadAt(buf, f.off)
		if n > 0 {
			f.off += int64(n)
			f.partial = append(f.partial, buf[:n]...)
			for {
				i := bytes.IndexByte(f.partial, '\n')
				if i < 0 {
					break
				}
				if int64(i) <= s.limit {
					out = append(out, s.subLine(f, f.partial[:i])...)
				}
				f.partial = f.partial[i+1:]
			}
			if int64(len(f.partial)) > s.limit {
				f.partial = nil // a line over the limit is skipped, as in the session
			}
			f.partial = slices.Clip(f.partial)
		}
		if err != nil || n == 0 {
			return out
		}
	}
}

// subLine translates one line of a subagent's file: its lines, and
// before them those of the subagents whose calls it gives results of.
func (s *claudeSession) subLine(f *subagentFile, line []byte) []model.Record {
	out := s.endedSubagents(line)
	return append(out, s.tr.SubagentLine(f.meta, line)...)
}

// safeAgentID reports whether id may name a file: an agent id is letters,
// digits, '-' and '_', never a path.
func safeAgentID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
