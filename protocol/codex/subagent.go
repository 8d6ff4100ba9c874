package codex

// A subagent of a Codex session is a thread of its own, with a rollout of
// its own: the session's spawn_agent call starts it and returns at once
// ({"agent_id": thread, "nickname": …}, the call's output), and the child
// works on while the session goes on (it waits for it with other calls).
// The child's first line, session_meta, names the thread that spawned it
// (source.subagent.thread_spawn.parent_thread_id). A child forked with its
// parent's history (spawn_agent's fork_context) writes that history again
// after its session_meta: a second session_meta (the parent's), the
// parent's lines up to the spawn call, then an output of the spawn call
// that tells the child it was forked; its own lines follow.
//
// SubagentLine translates a child's lines with the session's Translator,
// as the subagent run of the call that spawned it: its events carry the
// run's subagentRunId, the first of them after SUBAGENT_STARTED naming
// the spawn call (parentToolCallId), and the child's turn's end ends the
// run. The replayed history of a fork is skipped: the session shows it
// already.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Subagent is what a subagent's rollout says of itself in its first line.
type Subagent struct {
	// ID is the subagent's thread id; Parent the thread that spawned it.
	ID, Parent string
	// Depth is how deep it runs: 1 under a session, 2 under a subagent.
	Depth int
	// Nickname is the name Codex gave it ("Lorentz"), Role the kind of
	// agent it was asked for ("explorer"), Path its place in the tree of
	// agents ("/root/review"); any may be "".
	Nickname, Role, Path string
}

// ReadSubagent reads a rollout's first line: ok when it is the
// session_meta of a thread another thread spawned.
func ReadSubagent(first []byte) (Subagent, bool) {
	var ln struct {
		Type    string `json:"type"`
		Payload struct {
			ID       string `json:"id"`
			Nickname string `json:"agent_nickname"`
			Role     string `json:"agent_role"`
			Source   struct {
				Subagent struct {
					Spawn *struct {
						Parent   string `json:"parent_thread_id"`
						Depth    int    `json:"depth"`
						Path     string `json:"agent_path"`
						Nickname string `json:"agent_nickname"`
						Role     string `json:"agent_role"`
						Type     string `json:"agent_type"`
					} `json:"thread_spawn"`
				} `json:"subagent"`
			} `json:"source"`
		} `json:"payload"`
	}
	if json.Unmarshal(bytes.TrimSpace(first), &ln) != nil || ln.Type != "session_meta" {
		return Subagent{}, false
	}
	p := ln.Payload
	s := p.Source.Subagent.Spawn
	if p.ID == "" || s == nil || s.Parent == "" {
		return Subagent{}, false
	}
	a := Subagent{ID: p.ID, Parent: s.Parent, Depth: s.Depth, Nickname: s.Nickname, Role: s.Role, Path: s.Path}
	if a.Role == "" {
		a.Role = s.Type
	}
	if a.Nickname == "" {
		a.Nickname = p.Nickname
	}
	if a.Role == "" {
		a.Role = p.Role
	}
	return a, true
}

// ParentThread is the thread that spawned the session whose rollout
// starts with head ("" for a session nobody spawned). head may be cut
// anywhere after the parent's id: session_meta names its source before
// the instructions that make it long.
func ParentThread(head []byte) string {
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if !bytes.Contains(head, []byte(`"session_meta"`)) || !bytes.Contains(head, []byte(`"thread_spawn"`)) {
		return ""
	}
	// A key written in a JSON string would have its quotes escaped: this
	// is a member's name.
	const key = `"parent_thread_id":"`
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return ""
	}
	rest := head[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return ""
	}
	return string(rest[:j])
}

// spawn is a call that spawned a thread.
type spawn struct {
	call string
	// by is the subagent run the call was made in ("" for the session's own).
	by   string
	task string
}

// child is a subagent whose lines are being read.
type child struct {
	meta  Subagent
	calls map[string]*call
	// own says the child's own session_meta was read; replay that the
	// lines read are its parent's history, written again.
	own, replay bool
	// run is its open subagent run ("" when none is); runs counts them.
	run  string
	runs int
}

// forkedNote starts the output Codex gives a forked child's spawn call at
// the end of the history it replays.
const forkedNote = "You are the newly spawned agent."

// sessionWide are the events that are the session's even when a
// subagent's line makes them.
var sessionWide = map[string]bool{agui.TypeRunStarted: true, agui.TypeRunFinished: true, agui.TypeStateSnapshot: true,
	agui.TypeSubagentStarted: true, agui.TypeSubagentFinished: true, agui.TypeSubagentError: true}

// Spawned are the ids of the threads the session's calls (and its
// subagents' calls) spawned, in the order their calls returned. The
// caller must not change the slice.
func (t *Translator) Spawned() []string { return t.spawned }

// SubagentRunID is the AG-UI subagent run that stands for the nth turn
// (from 1) of Codex's subagent thread id.
func SubagentRunID(thread string, n int) string {
	if n <= 1 {
		return "codex-" + thread
	}
	return "codex-" + thread + "-" + strconv.Itoa(n)
}

// maxSpawns bounds the spawned threads a Translator keeps track of.
const maxSpawns = 4096

// spawnTask keeps the task a spawn_agent call gives, to describe its
// subagent.
func (t *Translator) spawnTask(call, args string) {
	var a struct {
		Message string `json:"message"`
	}
	if call == "" || json.Unmarshal([]byte(args), &a) != nil || a.Message == "" || len(t.tasks) >= maxSpawns {
		return
	}
	t.tasks[call] = a.Message
}

// spawnOutput learns the thread a call's output says it spawned
// ({"agent_id": …}, what spawn_agent returns).
func (t *Translator) spawnOutput(call string, raw json.RawMessage) {
	text := strings.TrimSpace(outputText(raw))
	if call == "" || !strings.HasPrefix(text, "{") || !strings.Contains(text, `"agent_id"`) {
		return
	}
	var o struct {
		AgentID string `json:"agent_id"`
	}
	if json.Unmarshal([]byte(text), &o) == nil {
		t.learnSpawn(call, o.AgentID, t.tasks[call])
	}
}

// learnSpawn keeps that call spawned thread, the first time it is told.
func (t *Translator) learnSpawn(call, thread, task string) {
	if call == "" || thread == "" || thread == t.thread || len(t.spawns) >= maxSpawns {
		return
	}
	if _, ok := t.spawns[thread]; ok {
		return
	}
	by := ""
	if t.sub != nil {
		by = t.sub.run
	}
	if task == "" {
		task = t.tasks[call]
	}
	delete(t.tasks, call)
	t.spawns[thread] = &spawn{call: call, by: by, task: task}
	t.spawned = append(t.spawned, thread)
}

// SubagentLine translates one complete line of subagent a's own rollout
// and returns its records: its steps and messages, marked as its run's
// (subagentRunId), the first of them after the run's start under the call
// that spawned it. They belong to the session's open turn. The end of the
// child's turn ends its run; a later turn of the child is a run of its
// own under the same call. A line of the history a forked child replays
// makes nothing, and so does a line of a thread no call of the session
// is known to have spawned.
func (t *Translator) SubagentLine(a Subagent, b []byte) []model.Record {
	t.out = nil
	b = bytes.TrimSpace(b)
	sp, known := t.spawns[a.ID]
	if a.ID == "" || a.ID == t.thread || !known || len(b) == 0 || b[0] != '{' {
		return nil
	}
	var ln Line
	if json.Unmarshal(b, &ln) != nil {
		return nil
	}
	c := t.children[a.ID]
	if c == nil {
		if len(t.children) >= maxSpawns {
			return nil
		}
		c = &child{meta: a, calls: map[string]*call{}}
		t.children[a.ID] = c
	}
	if t.replayed(c, sp, &ln) {
		return nil
	}
	at, _ := time.Parse(time.RFC3339Nano, ln.Timestamp)
	saved := t.calls
	t.sub, t.calls = c, c.calls
	defer func() { t.sub, t.calls = nil, saved }()
	switch ln.Type {
	case "response_item":
		var it ResponseItem
		if json.Unmarshal(ln.Payload, &it) != nil {
			break
		}
		if it.Type == "message" && it.Role == "user" {
			// The task it was given is its first message, in whatever
			// turn of the session is open.
			if text := joinText(it.Content); !isContext(text) && strings.TrimSpace(text) != "" {
				t.ensureRun(at)
				t.message(at, "user", text)
			}
			break
		}
		t.responseItem(at, &it)
	case "event_msg":
		var ev EventMsg
		if json.Unmarshal(ln.Payload, &ev) != nil {
			break
		}
		switch ev.Type {
		case "task_started", "turn_started":
			t.ensureRun(at)
			t.startSubagent(at)
		case "task_complete", "turn_complete":
			t.endSubagent(c, at, "")
		case "turn_aborted":
			why := "the subagent's turn was aborted"
			if ev.Reason != "" {
				why += " (" + ev.Reason + ")"
			}
			t.endSubagent(c, at, why)
		case "patch_apply_end":
			if cl, ok := c.calls[ev.CallID]; ok && ev.Success != nil && !*ev.Success {
				cl.failed = true
			}
		case "collab_agent_spawn_end":
			t.learnSpawn(ev.CallID, ev.NewThreadID, "")
		}
	}
	return t.out
}

// replayed reports whether line ln of child c is one to pass over: its
// session_meta, and the parent's history a fork writes again (from the
// parent's session_meta to the spawn call's output that ends it).
func (t *Translator) replayed(c *child, sp *spawn, ln *Line) bool {
	if ln.Type == "session_meta" {
		var m SessionMeta
		_ = json.Unmarshal(ln.Payload, &m)
		if c.own && m.ID != c.meta.ID {
			c.replay = true
		}
		c.own = true
		return true
	}
	if !c.replay {
		return false
	}
	if ln.Type == "response_item" {
		var it ResponseItem
		if json.Unmarshal(ln.Payload, &it) == nil && (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") &&
			(it.CallID == sp.call || strings.HasPrefix(strings.TrimSpace(outputText(it.Output)), forkedNote)) {
			c.replay = false
		}
	}
	return true
}

// startSubagent starts the run of the subagent being read when it has
// none open: SUBAGENT_STARTED under the call that spawned it.
func (t *Translator) startSubagent(at time.Time) {
	c := t.sub
	if c == nil || c.run != "" {
		return
	}
	t.ensureRun(at)
	sp := t.spawns[c.meta.ID]
	c.runs++
	c.run = SubagentRunID(c.meta.ID, c.runs)
	name := c.meta.Nickname
	if name == "" {
		name = c.meta.Role
	}
	if name == "" {
		name = "subagent"
	}
	ev := map[string]any{"type": agui.TypeSubagentStarted, "subagentRunId": c.run, "name": name,
		"parentToolCallId": sp.call}
	desc := sp.task
	if c.meta.Role != "" && c.meta.Role != name {
		desc = strings.TrimSpace(c.meta.Role + ": " + desc)
	}
	if desc != "" {
		ev["description"] = desc
	}
	if sp.by != "" && t.isOpen(sp.by) {
		ev["parentSubagentRunId"] = sp.by
	}
	t.open = append(t.open, c)
	t.emit(at, ev)
}

func (t *Translator) isOpen(run string) bool {
	for _, c := range t.open {
		if c.run == run {
			return true
		}
	}
	return false
}

// endSubagent ends c's open run: finished, or an error that says why.
func (t *Translator) endSubagent(c *child, at time.Time, failed string) {
	if c.run == "" {
		return
	}
	for i, o := range t.open {
		if o == c {
			t.open = append(t.open[:i], t.open[i+1:]...)
			break
		}
	}
	ev := map[string]any{"type": agui.TypeSubagentFinished, "subagentRunId": c.run}
	if failed != "" {
		ev = map[string]any{"type": agui.TypeSubagentError, "subagentRunId": c.run, "message": failed}
	}
	c.run = ""
	t.emit(at, ev)
}

// closeSubagents ends every subagent run still open, newest first: the
// session's turn ends.
func (t *Translator) closeSubagents(at time.Time) {
	for len(t.open) > 0 {
		t.endSubagent(t.open[len(t.open)-1], at, "")
	}
}

// LineTime is when a rollout line was written (zero when it does not
// say), read without decoding the rest of the line.
func LineTime(b []byte) time.Time {
	b = bytes.TrimSpace(b)
	const key = `{"timestamp":"`
	if bytes.HasPrefix(b, []byte(key)) {
		rest := b[len(key):]
		if i := bytes.IndexByte(rest, '"'); i > 0 {
			at, err := time.Parse(time.RFC3339Nano, string(rest[:i]))
			if err == nil {
				return at
			}
		}
	}
	var ln struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(b, &ln) != nil {
		return time.Time{}
	}
	at, _ := time.Parse(time.RFC3339Nano, ln.Timestamp)
	return at
}
