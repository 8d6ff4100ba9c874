package claude

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Subagent is what Claude Code says of a subagent beside its file (the
// agent-<id>.meta.json next to subagents/agent-<id>.jsonl): which call
// started it, and what for. A subagent of an older layout has no such
// file, and is known only by its id.
type Subagent struct {
	// ID is the agent's id (agentId in its lines, in its file's name).
	ID string `json:"-"`
	// Type is the kind of agent ("general-purpose", "Explore", …).
	Type        string `json:"agentType"`
	Description string `json:"description"`
	// ToolUseID is the Task or Agent call that started it.
	ToolUseID string `json:"toolUseId"`
	// ParentAgent is the subagent whose call started it, "" for the
	// session's own.
	ParentAgent string `json:"parentAgentId"`
	// SpawnDepth is how deep it runs: 1 under the session, 2 under a
	// subagent.
	SpawnDepth int `json:"spawnDepth"`
}

// ReadSubagent reads a subagent's .meta.json (a zero Subagent but for its
// id when b is not one).
func ReadSubagent(id string, b []byte) Subagent {
	var s Subagent
	if json.Unmarshal(bytes.TrimSpace(b), &s) != nil {
		s = Subagent{}
	}
	s.ID = id
	return s
}

// SubagentRunID is the AG-UI subagent run that stands for Claude Code's
// subagent id.
func SubagentRunID(agentID string) string { return "agent-" + agentID }

// SubagentLine reads one complete line of subagent a's own file and
// returns its records: the subagent's steps and messages, each marked as
// the subagent's (subagentRunId), the first of them preceded by the
// subagent's start under the call that started it. They belong to the
// session's open run; the result of that call ends the subagent.
func (t *Translator) SubagentLine(a Subagent, b []byte) []model.Record {
	b = bytes.TrimSpace(b)
	if a.ID == "" || len(b) == 0 || b[0] != '{' {
		return nil
	}
	var l Line
	if json.Unmarshal(b, &l) != nil {
		return nil
	}
	if t.session == "" && l.SessionID != "" {
		t.session = l.SessionID
	}
	at := parseTime(l.Timestamp)
	if l.Type != "user" && l.Type != "assistant" {
		return t.take()
	}
	t.openSubagent(a, &l, at)
	t.agent = SubagentRunID(a.ID)
	defer func() { t.agent = "" }()
	switch l.Type {
	case "user":
		t.subagentUser(&l, at)
	case "assistant":
		t.blocks(&l, at)
	}
	return t.take()
}

// openSubagent starts subagent a's run the first time one of its lines
// is read.
func (t *Translator) openSubagent(a Subagent, l *Line, at time.Time) {
	id := SubagentRunID(a.ID)
	if _, seen := t.subagents[id]; seen {
		return
	}
	t.ensureRun(l, at)
	name := a.Type
	if name == "" {
		name = "subagent"
	}
	ev := map[string]any{"type": "SUBAGENT_STARTED", "subagentRunId": id, "name": name}
	if a.Description != "" {
		ev["description"] = a.Description
	}
	if a.ToolUseID != "" {
		ev["parentToolCallId"] = a.ToolUseID
		t.callAgent[a.ToolUseID] = id
	}
	if p := SubagentRunID(a.ParentAgent); a.ParentAgent != "" && t.subagents[p] {
		ev["parentSubagentRunId"] = p
	}
	t.emit(at, ev)
	t.subagents[id] = true
	t.openSubs = append(t.openSubs, id)
}

// subagentUser reads a user line of a subagent: the prompt it was given
// is its first message; tool results complete its steps.
func (t *Translator) subagentUser(l *Line, at time.Time) {
	if l.Message == nil || l.IsMeta {
		return
	}
	bs := blocks(l.Message.Content)
	results := false
	for i := range bs {
		if bs[i].Type == "tool_result" {
			results = true
			t.result(&bs[i], l.ToolUseResult, at)
		}
	}
	if results {
		return
	}
	if text := textOf(bs); text != "" {
		t.message(at, "user-"+l.UUID, "user", text)
	}
}

// endSubagent ends the subagent the call id started, if one is open: its
// call has its result.
func (t *Translator) endSubagent(call, agentID string, failed bool, at time.Time) {
	id, ok := t.callAgent[call]
	if !ok && agentID != "" {
		id, ok = SubagentRunID(agentID), true
	}
	if !ok || !t.subagents[id] || !t.isOpenSub(id) {
		return
	}
	delete(t.callAgent, call)
	t.closeSub(id, failed, at)
}

func (t *Translator) isOpenSub(id string) bool {
	for _, s := range t.openSubs {
		if s == id {
			return true
		}
	}
	return false
}

// closeSub ends one open subagent, and the subagents it started first.
func (t *Translator) closeSub(id string, failed bool, at time.Time) {
	for i := len(t.openSubs) - 1; i >= 0; i-- {
		if t.openSubs[i] != id {
			continue
		}
		t.openSubs = append(t.openSubs[:i], t.openSubs[i+1:]...)
		break
	}
	typ := "SUBAGENT_FINISHED"
	if failed {
		typ = "SUBAGENT_ERROR"
	}
	ev := map[string]any{"type": typ, "subagentRunId": id}
	if failed {
		ev["message"] = "the subagent's call failed"
	}
	t.emit(at, ev)
}

// closeSubs ends every subagent still open, newest first: their run ends.
func (t *Translator) closeSubs(at time.Time) {
	for len(t.openSubs) > 0 {
		t.closeSub(t.openSubs[len(t.openSubs)-1], false, at)
	}
	clear(t.callAgent)
}
