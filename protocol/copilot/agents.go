package copilot

import (
	"time"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// subagentStarted opens a subagent run inside the open run: its id is the
// call that spawned it (a task call), which it names as its parent call,
// and a subagent that a subagent's call spawned names that one as its
// parent. A subagent already running, or already ended in this run, is
// left as it is.
func (t *Translator) subagentStarted(at time.Time, ev *Event, d *SubagentData) {
	t.ensureRun(at, "")
	id := idOr(d.ToolCallID, ev.AgentID)
	if id == "" {
		id = t.nextID("subagent")
	}
	if t.open(id) != nil || t.done[id] {
		t.bind(ev.AgentID, id)
		return
	}
	name := idOr(d.AgentDisplayName, idOr(d.AgentName, "subagent"))
	e := map[string]any{"type": agui.TypeSubagentStarted, "name": name}
	if d.AgentDescription != "" {
		e["description"] = d.AgentDescription
	}
	if d.ToolCallID != "" {
		e["parentToolCallId"] = d.ToolCallID
		if c := t.calls[d.ToolCallID]; c != nil && c.sub != "" {
			e["parentSubagentRunId"] = c.sub
		}
	}
	t.emit(at, id, e)
	t.subs = append(t.subs, &subagent{id: id, agent: ev.AgentID})
	t.bind(ev.AgentID, id)
}

// subagentEnded finishes a running subagent, with its error when it failed.
func (t *Translator) subagentEnded(at time.Time, ev *Event, d *SubagentData, failed bool) {
	if t.run == "" {
		return
	}
	s := t.open(d.ToolCallID)
	if s == nil && ev.AgentID != "" {
		s = t.open(t.agents[ev.AgentID])
	}
	if s == nil {
		return
	}
	if failed {
		msg := d.Error
		if msg == "" {
			msg = "subagent failed"
		}
		t.emit(at, s.id, map[string]any{"type": agui.TypeSubagentError, "message": msg})
	} else {
		t.emit(at, s.id, map[string]any{"type": agui.TypeSubagentFinished})
	}
	t.finished(s.id)
}

// finished notes that subagent id ended in the open run.
func (t *Translator) finished(id string) {
	for i, s := range t.subs {
		if s.id == id {
			t.subs = append(t.subs[:i], t.subs[i+1:]...)
			break
		}
	}
	if len(t.done) < maxRemembered {
		t.done[id] = true
	}
}

// open is the running subagent id, nil when none runs under that id.
func (t *Translator) open(id string) *subagent {
	if id == "" {
		return nil
	}
	for _, s := range t.subs {
		if s.id == id {
			return s
		}
	}
	return nil
}

// bind notes that the events carrying agentId agent are subagent id's.
func (t *Translator) bind(agent, id string) {
	if agent != "" && len(t.agents) < maxRemembered {
		t.agents[agent] = id
	}
}

// subOf is the subagent run an event belongs to ("" for the main agent's):
// the one its agentId was bound to, else the one its parentToolCallId
// spawned (older builds), else the one running subagent not yet bound to
// an agentId. An agentId still unknown opens a subagent of its own, so
// that what the agent does is shown as its. A run must be open.
func (t *Translator) subOf(agent, parentCall string) string {
	if agent == "" {
		if s := t.open(parentCall); s != nil {
			return s.id
		}
		return ""
	}
	if id, ok := t.agents[agent]; ok {
		return id
	}
	if s := t.open(parentCall); s != nil {
		t.bind(agent, s.id)
		return s.id
	}
	var free *subagent
	for _, s := range t.subs {
		if s.agent == "" {
			if free != nil {
				free = nil
				break
			}
			free = s
		}
	}
	if free != nil {
		free.agent = agent
		t.bind(agent, free.id)
		return free.id
	}
	id := agent
	if t.done[id] || t.open(id) != nil {
		// A subagent of that id ran or runs in this run: the agent is it.
		t.bind(agent, id)
		return id
	}
	t.emit(t.at, id, map[string]any{"type": agui.TypeSubagentStarted, "name": "subagent"})
	t.subs = append(t.subs, &subagent{id: id, agent: agent})
	t.bind(agent, id)
	return id
}
