package gemini

// A subagent of Gemini CLI (a local agent such as codebase_investigator,
// run as a tool call of the session) writes a session file of its own:
// chats/<parent session id>/<agent id>.jsonl, whose first record says
// kind "subagent" and whose sessionId is the agent's id (gemini-cli,
// packages/core/src/agents/local-executor.ts: the executor's agentId is
// its chat's promptId; services/chatRecordingService.ts: the file's
// place). A subagent's own subagents write theirs in the same folder: the
// parent session id is always the main session's.
//
// The link is the call that ran it: once the call is done, the session
// records it with agentId, the subagent's id (core/geminiChat.ts,
// recordCompletedToolCalls, from the invocation's data). Gemini CLI
// records a call only once it is done, so the session's file says nothing
// of a subagent while it works; its lines are read when its call is
// recorded: after the call's start, before its result. They are
// translated by the session's Translator, as the subagent's run
// (subagentRunId), with the same reading of records written again and
// rewinds as the session's own, kept apart for each subagent.

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// maxSubagentDepth bounds how deep subagents are read inside subagents.
const maxSubagentDepth = 8

// SubagentLines gives the complete lines of the subagent agentID's own
// file, in order and without their newlines (nil when there is none).
// The caller finds the file; a Translator knows none.
type SubagentLines func(agentID string) [][]byte

// SubagentRunID is the AG-UI subagent run that stands for Gemini CLI's
// subagent agentID.
func SubagentRunID(agentID string) string { return "agent-" + agentID }

// ReadSubagents tells the Translator where to get a subagent's lines
// when a call that ran one is recorded; without it (the default) such a
// call is a step like any other.
func (t *Translator) ReadSubagents(lines SubagentLines) { t.subLines = lines }

// SubagentLine translates one line of subagent agentID's own file as the
// subagent run of call (a call of the session, or "" when not known) and
// returns its records: the first line of a subagent starts its run, under
// the call. A caller that hands lines this way ends the run with
// EndSubagent. The subagent's lines belong to the session's open run; a
// line read when none is open shows nothing.
func (t *Translator) SubagentLine(agentID, call string, b []byte) []model.Record {
	t.out = nil
	if agentID == "" {
		return nil
	}
	c := t.subagent(agentID, call, "", "", time.Time{})
	if c != nil {
		c.Line(b)
	}
	return t.take()
}

// EndSubagent ends subagent agentID's run, failed or not, if it is open,
// and returns the records that say so.
func (t *Translator) EndSubagent(agentID string, failed bool) []model.Record {
	t.out = nil
	if c := t.subs[SubagentRunID(agentID)]; c != nil {
		msg := ""
		if failed {
			msg = "the subagent failed"
		}
		t.endSubagent(c, failed, msg, time.Time{})
	}
	return t.take()
}

// subagent is the translator of subagent agentID's lines, started under
// call (with name and description) the first time it is asked for while a
// run is open; nil when it cannot be.
func (t *Translator) subagent(agentID, call, name, description string, at time.Time) *Translator {
	root := t.root()
	id := SubagentRunID(agentID)
	if c, ok := root.subs[id]; ok {
		return c
	}
	if root.run == "" || len(root.subs) >= maxRemembered || t.depth >= maxSubagentDepth {
		return nil
	}
	c := New()
	c.parent, c.agent, c.depth, c.run = root, id, t.depth+1, id
	root.subs[id] = c
	root.openSubs = append(root.openSubs, c)
	if name == "" {
		name = "subagent"
	}
	ev := map[string]any{"type": agui.TypeSubagentStarted, "subagentRunId": id, "name": name}
	if description != "" {
		ev["description"] = description
	}
	if call != "" {
		ev["parentToolCallId"] = call
	}
	if t.agent != "" {
		ev["parentSubagentRunId"] = t.agent
	}
	root.emit(at, ev)
	return c
}

// ranSubagent reads the lines of the subagent call c ran, which is done:
// its run starts under the call, shows what its file holds, and ends as
// the call did.
func (t *Translator) ranSubagent(at time.Time, c *ToolCall) {
	root := t.root()
	if root.subLines == nil || c.AgentID == "" {
		return
	}
	if _, seen := root.subs[SubagentRunID(c.AgentID)]; seen {
		return
	}
	lines := root.subLines(c.AgentID)
	if len(lines) == 0 {
		return
	}
	start := at
	if h := headerTime(lines[0]); !h.IsZero() {
		start = h
	}
	sub := t.subagent(c.AgentID, c.ID, c.Name, c.Description, start)
	if sub == nil {
		return
	}
	for _, ln := range lines {
		sub.Line(ln)
	}
	end := at
	if ct := parseTime(c.Timestamp); !ct.IsZero() {
		end = ct
	}
	switch c.Status {
	case "success":
		t.endSubagent(sub, false, "", end)
	case "cancelled":
		t.endSubagent(sub, true, "the subagent's call was cancelled", end)
	default:
		t.endSubagent(sub, true, "the subagent's call failed", end)
	}
}

// endSubagent ends subagent c's run if it is still open; failed with
// message, or finished.
func (t *Translator) endSubagent(c *Translator, failed bool, message string, at time.Time) {
	if c.run == "" {
		return
	}
	c.run = ""
	root := t.root()
	for i, o := range root.openSubs {
		if o == c {
			root.openSubs = append(root.openSubs[:i], root.openSubs[i+1:]...)
			break
		}
	}
	ev := map[string]any{"type": agui.TypeSubagentFinished, "subagentRunId": c.agent}
	if failed {
		ev = map[string]any{"type": agui.TypeSubagentError, "subagentRunId": c.agent, "message": message}
	}
	root.emit(at, ev)
}

// failSubagent ends the subagent t reads with an error it wrote.
func (t *Translator) failSubagent(at time.Time, message string) {
	if message == "" {
		message = "the subagent failed"
	}
	t.endSubagent(t, true, message, at)
}

// closeSubagents ends every subagent still open, newest first: the
// session's run ends.
func (t *Translator) closeSubagents(at time.Time) {
	for len(t.openSubs) > 0 {
		t.endSubagent(t.openSubs[len(t.openSubs)-1], false, "", at)
	}
}

// newCall reports whether call id may start: only an id no file of the
// session started (a session's own calls start once each already).
func (t *Translator) newCall(id string) bool {
	root := t.root()
	if root.calls[id] {
		return false
	}
	if len(root.calls) < maxRemembered {
		root.calls[id] = true
	}
	return true
}

// root is the session's Translator: t itself unless t reads a subagent.
func (t *Translator) root() *Translator {
	if t.parent != nil {
		return t.parent
	}
	return t
}

// headerTime is when the session file whose first line is b started
// (zero when b is no first record or says no time).
func headerTime(b []byte) time.Time {
	b = bytes.TrimSpace(b)
	var m Metadata
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &m) != nil || m.SessionID == "" {
		return time.Time{}
	}
	return parseTime(m.StartTime)
}
