package copilot

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/internal/lines"
)

// defaultThread is the thread of a session file whose session.start is missing.
const defaultThread = "copilot"

// maxRemembered bounds what a Translator keeps between lines (calls
// waiting, tools asked for, subagents named, reasoning shown).
const maxRemembered = 1 << 12

// Translator turns the lines of one session file into AG-UI records, in
// order. Hand it lines (Line) or bytes as they are appended to the file
// (Write, then Flush at the end): it gives the same records however the
// bytes were cut, since it translates only whole lines. A Translator is
// pure and not safe for concurrent use.
type Translator struct {
	seq  uint64
	line int
	torn lines.Buffer // what Write left of a line not yet ended
	out  []model.Record

	// thread is the session's id, from its session.start.
	thread string
	// state is what the session says of itself, as the STATE_SNAPSHOT
	// last sent has it (sent, JSON).
	state session
	sent  string

	// run is the open run's id, "" between runs; lastRun the one before,
	// which the next continues; runs counts them.
	run, lastRun string
	runs         int
	// more says the main agent's last message asked for tools, so its
	// turn's end is not the run's.
	more bool
	// calls are the tool calls waiting for their completion.
	calls map[string]*call
	// asked are the calls the agent asked for, by id, so that a call that
	// completes without having started is still shown.
	asked map[string]ToolRequest
	// subs are the subagents running in the open run, in the order they
	// started; done those that ended in it.
	subs []*subagent
	done map[string]bool
	// agents maps an agentId to the subagent run it names.
	agents map[string]string
	// shown is the reasoning shown in the open run, so the same text
	// written twice (assistant.reasoning and a message's reasoningText) is
	// shown once.
	shown map[string]bool
	// ids numbers the messages and reasoning Copilot gives no id.
	ids int
	// at is the time of the event being translated.
	at time.Time
}

// session is the thread's state as agentwatch shows it.
type session struct {
	Cwd        string `json:"cwd,omitempty"`
	GitRoot    string `json:"gitRoot,omitempty"`
	Branch     string `json:"branch,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Repository string `json:"repository,omitempty"`
	Producer   string `json:"producer,omitempty"`
	CLIVersion string `json:"cliVersion,omitempty"`
	Model      string `json:"model,omitempty"`
	Effort     string `json:"effort,omitempty"`
}

// call is a tool call waiting for its completion.
type call struct {
	name string
	sub  string // the subagent run whose call it is, "" for the main agent
}

// subagent is a subagent running in the open run.
type subagent struct {
	id    string // its subagent run id: the call that spawned it
	agent string // the agentId its events carry, when known
}

// New returns a Translator that has seen nothing.
func New() *Translator {
	return &Translator{calls: map[string]*call{}, asked: map[string]ToolRequest{}, done: map[string]bool{},
		agents: map[string]string{}, shown: map[string]bool{}}
}

// Thread is the session's id ("" until its session.start was read).
func (t *Translator) Thread() string { return t.thread }

// Write translates the whole lines in p, after what an earlier Write left
// of a line not yet ended, and keeps the rest for the next Write or Flush.
func (t *Translator) Write(p []byte) []model.Record { return t.torn.Write(p, t.Line) }

// Flush translates what Write left of a last line without its newline.
func (t *Translator) Flush() []model.Record { return t.torn.Flush(t.Line) }

// Line translates one line of a session file (without its newline) and
// returns the records it makes, numbered on from the last. A blank line
// makes none and is not counted; a line that is not an event makes one
// unreadable record saying which line; an ephemeral event, or one of a
// type this package does not know, makes none.
func (t *Translator) Line(b []byte) []model.Record {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	t.line++
	t.out = nil
	var ev Event
	if err := json.Unmarshal(b, &ev); err != nil || ev.Type == "" {
		t.seq++
		t.out = append(t.out, lines.Unreadable(t.seq, t.line, err, "a Copilot session event ({\"type\", \"id\", \"timestamp\", \"data\"})"))
		return t.out
	}
	if ev.Ephemeral {
		return nil
	}
	at, _ := time.Parse(time.RFC3339Nano, ev.Timestamp)
	t.at = at
	t.event(at, &ev)
	return t.out
}

// event translates one event of a known type; the rest show nothing.
func (t *Translator) event(at time.Time, ev *Event) {
	switch ev.Type {
	case "session.start":
		var d StartData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.start(at, &d)
		}
	case "session.resume":
		var d ResumeData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.setModel(d.SelectedModel, d.ReasoningEffort)
			t.setContext(d.Context)
			t.stateChanged(at)
		}
	case "session.context_changed":
		var c Context
		if json.Unmarshal(ev.Data, &c) == nil {
			t.setContext(&c)
			t.stateChanged(at)
		}
	case "session.model_change":
		var d ModelChangeData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.setModel(d.NewModel, "")
			t.stateChanged(at)
		}
	case "user.message":
		var d UserMessageData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.userMessage(at, ev, &d)
		}
	case "assistant.turn_start":
		if ev.AgentID == "" {
			t.ensureRun(at, "")
			t.more = false
		}
	case "assistant.turn_end":
		if ev.AgentID == "" {
			t.turnEnd(at)
		}
	case "assistant.message":
		var d MessageData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.assistantMessage(at, ev, &d)
		}
	case "assistant.reasoning":
		var d ReasoningData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.ensureRun(at, "")
			t.reasoning(at, t.subOf(ev.AgentID, ""), d.Content)
		}
	case "tool.execution_start":
		var d ToolStartData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.toolStart(at, ev, &d)
		}
	case "tool.execution_complete":
		var d ToolCompleteData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.toolComplete(at, ev, &d)
		}
	case "subagent.started":
		var d SubagentData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.subagentStarted(at, ev, &d)
		}
	case "subagent.completed", "subagent.failed":
		var d SubagentData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.subagentEnded(at, ev, &d, ev.Type == "subagent.failed")
		}
	case "session.compaction_complete":
		var d CompactionData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.compaction(at, ev, &d)
		}
	case "session.error":
		var d ErrorData
		if json.Unmarshal(ev.Data, &d) == nil {
			t.sessionError(at, ev, &d)
		}
	case "abort":
		if ev.AgentID == "" && t.run != "" {
			t.closeRun(at, "cancelled")
		}
	case "session.shutdown":
		var d ShutdownData
		_ = json.Unmarshal(ev.Data, &d)
		t.shutdown(at, &d)
	}
	// Every other type (session.compaction_start, whose end says what the
	// compaction did; permission.requested and .completed, whose call's
	// step shows what came of it; hooks, usage, titles, a type added
	// later) is bookkeeping: it shows nothing, and is no problem.
}

// start names the thread and keeps the session's description. A second
// session.start changes nothing.
func (t *Translator) start(at time.Time, d *StartData) {
	if t.thread != "" || d.SessionID == "" {
		return
	}
	t.thread = d.SessionID
	t.state.Producer, t.state.CLIVersion = d.Producer, d.CopilotVersion
	t.setModel(d.SelectedModel, d.ReasoningEffort)
	t.setContext(d.Context)
	t.stateChanged(at)
}

// setContext keeps where the session works.
func (t *Translator) setContext(c *Context) {
	if c == nil {
		return
	}
	if c.Cwd != "" {
		t.state.Cwd = c.Cwd
	}
	t.state.GitRoot, t.state.Branch, t.state.Commit, t.state.Repository = c.GitRoot, c.Branch, c.HeadCommit, c.Repository
}

// setModel keeps the model the session uses now, and its effort when said.
func (t *Translator) setModel(m, effort string) {
	if m != "" {
		t.state.Model = m
	}
	if effort != "" {
		t.state.Effort = effort
	}
}

// stateChanged sends the state when a run is open (a run's start sends it
// otherwise).
func (t *Translator) stateChanged(at time.Time) {
	if t.run != "" {
		t.sendState(at)
	}
}

// sendState sends the thread's state when it changed since it was last sent.
func (t *Translator) sendState(at time.Time) {
	b, _ := json.Marshal(t.state)
	if string(b) == t.sent || string(b) == "{}" {
		return
	}
	t.sent = string(b)
	var snap map[string]any
	_ = json.Unmarshal(b, &snap)
	t.emit(at, "", map[string]any{"type": agui.TypeStateSnapshot, "snapshot": snap})
}

// openRun starts a run named after the event that opens it: RUN_STARTED,
// then the thread's state. Its parent is the run before it, which it
// continues.
func (t *Translator) openRun(at time.Time, eventID string) {
	t.runs++
	id := "run-" + eventID
	if eventID == "" {
		id = "run-" + strconv.Itoa(t.runs)
	}
	ev := map[string]any{"type": agui.TypeRunStarted, "threadId": t.threadID(), "runId": id}
	if t.lastRun != "" && t.lastRun != id {
		ev["parentRunId"] = t.lastRun
	}
	t.emit(at, "", ev)
	t.run, t.lastRun = id, id
	t.more = false
	t.sent = ""
	t.sendState(at)
}

// ensureRun opens a run for something that belongs in one when none is
// open: a session resumed mid-turn, a line after the run ended.
func (t *Translator) ensureRun(at time.Time, eventID string) {
	if t.run == "" {
		t.openRun(at, eventID)
	}
}

// turnEnd ends the run when the main agent's turn asked for no more tools
// and nothing it started is still running.
func (t *Translator) turnEnd(at time.Time) {
	if t.run == "" || t.more || len(t.subs) > 0 {
		return
	}
	for _, c := range t.calls {
		if c.sub == "" {
			return
		}
	}
	t.closeRun(at, "")
}

// closeRun ends the open run, cancelled when outcome says so: the
// subagents still running finish with it, and its calls still waiting end
// with it (the fold settles their steps), so a completion that comes for
// one later is not shown.
func (t *Translator) closeRun(at time.Time, outcome string) {
	for i := len(t.subs) - 1; i >= 0; i-- {
		t.emit(at, t.subs[i].id, map[string]any{"type": agui.TypeSubagentFinished})
	}
	ev := map[string]any{"type": agui.TypeRunFinished, "threadId": t.threadID(), "runId": t.run}
	if outcome != "" {
		ev["outcome"] = map[string]any{"type": outcome}
	}
	t.emit(at, "", ev)
	t.endRun()
}

// endRun forgets what belonged to the run that ended.
func (t *Translator) endRun() {
	t.run = ""
	t.more = false
	t.subs = nil
	clear(t.calls)
	clear(t.asked)
	clear(t.done)
	clear(t.agents)
	clear(t.shown)
}

// shutdown ends the open run: in error when the session crashed.
func (t *Translator) shutdown(at time.Time, d *ShutdownData) {
	if t.run == "" {
		return
	}
	if d.ShutdownType == "error" {
		msg := d.ErrorReason
		if msg == "" {
			msg = "Copilot shut down in error"
		}
		for i := len(t.subs) - 1; i >= 0; i-- {
			t.emit(at, t.subs[i].id, map[string]any{"type": agui.TypeSubagentFinished})
		}
		t.emit(at, "", map[string]any{"type": agui.TypeRunError, "message": msg, "code": "shutdown"})
		t.endRun()
		return
	}
	t.closeRun(at, "")
}

// threadID is the thread RUN_STARTED names.
func (t *Translator) threadID() string {
	if t.thread == "" {
		return defaultThread
	}
	return t.thread
}

// nextID numbers a message or reasoning Copilot gave no id.
func (t *Translator) nextID(kind string) string {
	t.ids++
	return kind + "-" + strconv.Itoa(t.ids)
}

// emit adds one AG-UI event at time at (none when zero), of subagent run
// sub ("" for the main agent): encoded as JSON and decoded back as every
// AG-UI record is, so it folds exactly as the same event read from a log
// would.
func (t *Translator) emit(at time.Time, sub string, ev map[string]any) {
	if sub != "" {
		ev["subagentRunId"] = sub
	}
	if !at.IsZero() {
		ms := at.UnixMilli()
		ev["timestamp"] = ms
		at = time.UnixMilli(ms).UTC()
	}
	raw, err := agui.MarshalEvent(ev)
	if err != nil {
		// Only strings decoded from JSON, numbers, raw JSON, and maps and
		// lists of them are put in events.
		panic("copilot: encode event: " + err.Error())
	}
	t.seq++
	t.out = append(t.out, model.Record{Seq: t.seq, At: at, Proto: model.ProtoAGUI, Raw: raw,
		Event: agui.Decode(raw), Thread: t.thread})
}
