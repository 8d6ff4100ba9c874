package app

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// endedLook is what a Copilot CLI session file said when last read: its
// size and time then, and whether its last line ended the session.
type endedLook struct {
	size  int64
	mod   time.Time
	ended bool
	asks  bool // its last line asks the person for a permission
}

// copilotState is the state of a Copilot CLI session: ended once its last
// line is a session.shutdown (Copilot writes one when it exits; a session
// resumed writes more after it); waiting for you while its last line asks
// for a permission; else working while its file is being written, and
// otherwise open, its last turn telling working from idle.
// Copilot keeps no registry of running sessions, so a session whose
// process died without a shutdown stays open.
func (w *agentWatch) copilotState(path string, now time.Time) model.AgentState {
	st, err := os.Stat(path)
	if err != nil {
		return model.AgentUnknown
	}
	if w.ended == nil {
		w.ended = map[string]endedLook{}
	}
	look, ok := w.ended[path]
	if !ok || look.size != st.Size() || !look.mod.Equal(st.ModTime()) {
		last := lastLineType(path, st.Size())
		look = endedLook{size: st.Size(), mod: st.ModTime(), ended: last == "session.shutdown", asks: last == "permission.requested"}
		w.ended[path] = look
	}
	switch {
	case look.ended:
		return model.AgentEnded
	case look.asks:
		return model.AgentWaiting // a permission asked and not answered yet
	case now.Sub(st.ModTime()) < writingFor:
		return model.AgentWorking
	}
	return model.AgentOpen
}

// tailLook is the most of a file's end read for its last line.
const tailLook = 64 << 10

// lastLineType is the "type" of the last whole line of the file at path,
// size bytes long ("" when it cannot be read or has none).
func lastLineType(path string, size int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	from := max(size-tailLook, 0)
	buf := make([]byte, size-from)
	if _, err := f.ReadAt(buf, from); err != nil && err != io.EOF {
		return ""
	}
	buf = bytes.TrimRight(buf, "\r\n \t")
	line := buf[bytes.LastIndexByte(buf, '\n')+1:]
	var l struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &l) != nil {
		return ""
	}
	return l.Type
}

// mixedStates are the states of the sessions of several agents' folders:
// each file is asked of the watch whose folder holds it.
func (w *agentWatch) mixedStates(paths []string, now time.Time, out model.AgentStates) {
	for _, part := range w.parts {
		if part.changed == nil {
			part.changed = w.changed // what the follower saw is the whole folder's
		}
		var mine []string
		for _, p := range paths {
			if within(part.root, p) {
				mine = append(mine, p)
			}
		}
		if len(mine) == 0 {
			continue
		}
		for p, s := range part.states(mine, now) {
			out[p] = s
		}
	}
}

// within reports whether path is in the folder root.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
