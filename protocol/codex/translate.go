package codex

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/internal/lines"
)

// defaultThread is the thread of a rollout whose session_meta is missing.
const defaultThread = "codex"

// Translator turns the lines of one rollout into AG-UI records, in order.
// Hand it lines (Line) or bytes as they are appended to the file (Write,
// then Flush at the end): it gives the same records however the bytes
// were cut, since it translates only whole lines. A Translator is pure
// and not safe for concurrent use.
type Translator struct {
	seq  uint64
	line int
	torn lines.Buffer // what Write left of a line not yet ended
	out  []model.Record

	// thread is the session's id, from its first session_meta.
	thread string
	// state is what the session and its turn say of themselves, as the
	// STATE_SNAPSHOT last sent has it (sent, JSON).
	state session
	sent  string

	// run is the open turn; nil between turns.
	run  *runState
	runs int
	// ids numbers the messages, reasoning and searches, which Codex gives
	// no id of their own.
	ids int
	// calls are the open turn's tool calls waiting for their output.
	calls map[string]*call
	// usage is the session's token count so far, and at the open turn's start.
	usage, usageAtStart *TokenUsage
	// compacted says the line before was a compaction, whose event the
	// next line may repeat.
	compacted bool
	// prompts are the user's messages written before any turn opened,
	// shown when the next one does.
	prompts []pending

	// spawns are the threads the session's calls spawned (subagent.go),
	// by thread id, and spawned their ids in the order they were learnt.
	spawns  map[string]*spawn
	spawned []string
	// tasks are the task each spawn_agent call waiting for its output gave.
	tasks map[string]string
	// children are the subagents whose lines were read, by thread id;
	// open are those whose subagent run is open, oldest first.
	children map[string]*child
	open     []*child
	// sub is the subagent whose line is being translated (nil for the
	// session's own lines): what is made of it is its run's.
	sub *child
}

// session is the thread's state as agentwatch shows it.
type session struct {
	Cwd            string `json:"cwd,omitempty"`
	Branch         string `json:"branch,omitempty"`
	Commit         string `json:"commit,omitempty"`
	Repository     string `json:"repository,omitempty"`
	Originator     string `json:"originator,omitempty"`
	CLIVersion     string `json:"cliVersion,omitempty"`
	Model          string `json:"model,omitempty"`
	Effort         string `json:"effort,omitempty"`
	ApprovalPolicy string `json:"approvalPolicy,omitempty"`
}

// runState is an open turn.
type runState struct {
	id string
}

// call is a tool call waiting for its output.
type call struct {
	name string
	// failed says Codex reported the call failed before its output came
	// (a patch that did not apply).
	failed bool
}

// pending is a message held until a turn opens.
type pending struct {
	at   time.Time
	text string
}

// maxPrompts bounds the messages held before a turn opens.
const maxPrompts = 16

// New returns a Translator that has seen nothing.
func New() *Translator {
	return &Translator{calls: map[string]*call{}, spawns: map[string]*spawn{}, tasks: map[string]string{},
		children: map[string]*child{}}
}

// Thread is the session's id ("" until its session_meta was read).
func (t *Translator) Thread() string { return t.thread }

// Write translates the whole lines in p, after what an earlier Write left
// of a line not yet ended, and keeps the rest for the next Write or Flush.
func (t *Translator) Write(p []byte) []model.Record { return t.torn.Write(p, t.Line) }

// Flush translates what Write left of a last line without its newline.
func (t *Translator) Flush() []model.Record { return t.torn.Flush(t.Line) }

// Line translates one line of a rollout (without its newline) and returns
// the records it makes, numbered on from the last. A blank line makes
// none and is not counted; a line that is not a rollout line makes one
// unreadable record saying which line; a line of a type this package
// does not know makes none.
func (t *Translator) Line(b []byte) []model.Record {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	t.line++
	t.out = nil
	var ln Line
	if err := json.Unmarshal(b, &ln); err != nil || ln.Type == "" {
		t.seq++
		t.out = append(t.out, lines.Unreadable(t.seq, t.line, err, "a rollout line ({\"timestamp\", \"type\", \"payload\"})"))
		return t.out
	}
	at, _ := time.Parse(time.RFC3339Nano, ln.Timestamp)
	compacted := t.compacted
	t.compacted = false
	switch ln.Type {
	case "session_meta":
		t.sessionMeta(ln.Payload)
	case "turn_context":
		t.turnContext(at, ln.Payload)
	case "response_item":
		var it ResponseItem
		if json.Unmarshal(ln.Payload, &it) == nil {
			t.responseItem(at, &it)
		}
	case "event_msg":
		var ev EventMsg
		if json.Unmarshal(ln.Payload, &ev) == nil {
			t.eventMsg(at, &ev, compacted)
		}
	case "compacted":
		var c struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(ln.Payload, &c)
		t.compaction(at, c.Message)
		t.compacted = true
	}
	return t.out
}

// sessionMeta names the thread. A second session_meta (a forked session
// replaying its parent's lines) changes nothing.
func (t *Translator) sessionMeta(raw json.RawMessage) {
	if t.thread != "" {
		return
	}
	var m SessionMeta
	if json.Unmarshal(raw, &m) != nil || m.ID == "" {
		return
	}
	t.thread = m.ID
	t.state.Cwd, t.state.Originator, t.state.CLIVersion = m.Cwd, m.Originator, m.CLIVersion
	if g := m.Git; g != nil {
		t.state.Branch, t.state.Commit, t.state.Repository = g.Branch, g.CommitHash, g.RepositoryURL
	}
}

// turnContext keeps the turn's settings; they are the thread's state.
func (t *Translator) turnContext(at time.Time, raw json.RawMessage) {
	var c TurnContext
	if json.Unmarshal(raw, &c) != nil {
		return
	}
	if c.Cwd != "" {
		t.state.Cwd = c.Cwd
	}
	t.state.Model, t.state.Effort, t.state.ApprovalPolicy = c.Model, c.Effort, c.ApprovalPolicy
	if t.run != nil {
		t.sendState(at)
	}
}

// eventMsg handles the events that open and close turns, count tokens,
// report a patch applied and mark a compaction; the rest (the user's and
// the agent's messages again, reasoning again) repeat response items.
func (t *Translator) eventMsg(at time.Time, ev *EventMsg, compacted bool) {
	switch ev.Type {
	case "task_started", "turn_started":
		if t.run != nil {
			t.closeRun(at, "")
		}
		t.openRun(at, ev.TurnID)
	case "task_complete", "turn_complete":
		if t.run != nil {
			t.closeRun(at, "")
		}
	case "turn_aborted":
		if t.run != nil {
			t.closeRun(at, "cancelled")
		}
	case "token_count":
		if ev.Info != nil && ev.Info.Total != nil {
			u := *ev.Info.Total
			t.usage = &u
		}
	case "patch_apply_end":
		if c, ok := t.calls[ev.CallID]; ok && ev.Success != nil && !*ev.Success {
			c.failed = true
		}
	case "collab_agent_spawn_end":
		t.learnSpawn(ev.CallID, ev.NewThreadID, "")
	case "context_compacted":
		if !compacted {
			t.compaction(at, "")
		}
	}
}

// openRun starts a turn: RUN_STARTED, the thread's state, then the
// messages held for it.
func (t *Translator) openRun(at time.Time, turnID string) {
	// A subagent's line may open the turn; what opens it is the session's.
	sub := t.sub
	t.sub = nil
	defer func() { t.sub = sub }()
	t.runs++
	id := turnID
	if id == "" {
		id = "turn-" + strconv.Itoa(t.runs)
	}
	t.run = &runState{id: id}
	t.usageAtStart = t.usage
	t.emit(at, map[string]any{"type": agui.TypeRunStarted, "threadId": t.threadID(), "runId": id})
	t.sent = ""
	t.sendState(at)
	held := t.prompts
	t.prompts = nil
	for _, p := range held {
		t.message(p.at, "user", p.text)
	}
}

// ensureRun opens a turn for something that belongs in one when none is
// open: a build that writes no turn events, or a line after a turn ended.
func (t *Translator) ensureRun(at time.Time) {
	if t.run == nil {
		t.openRun(at, "")
	}
}

// closeRun ends the open turn, cancelled when outcome says so: its calls
// still waiting for output end with it (the fold settles their steps),
// and an output that comes for one later is not shown.
func (t *Translator) closeRun(at time.Time, outcome string) {
	ev := map[string]any{"type": agui.TypeRunFinished, "threadId": t.threadID(), "runId": t.run.id}
	if outcome != "" {
		ev["outcome"] = map[string]any{"type": outcome}
	}
	if u := t.turnUsage(); u != nil {
		ev["usage"] = []any{u}
	}
	t.closeSubagents(at)
	t.emit(at, ev)
	t.run = nil
	clear(t.calls)
	clear(t.tasks)
	for _, c := range t.children {
		clear(c.calls)
	}
}

// turnUsage is what the turn used: the session's count at its end less
// the count at its start.
func (t *Translator) turnUsage() map[string]any {
	if t.usage == nil || t.usage == t.usageAtStart {
		return nil
	}
	u, s := *t.usage, TokenUsage{}
	if t.usageAtStart != nil {
		s = *t.usageAtStart
	}
	m := map[string]any{"provider": "openai", "inputTokens": u.Input - s.Input, "outputTokens": u.Output - s.Output,
		"totalTokens": u.Total - s.Total, "cachedInputTokens": u.CachedInput - s.CachedInput,
		"reasoningTokens": u.ReasoningOutput - s.ReasoningOutput}
	if t.state.Model != "" {
		m["model"] = t.state.Model
	}
	return m
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
	t.emit(at, map[string]any{"type": agui.TypeStateSnapshot, "snapshot": snap})
}

// compaction marks where Codex compacted the conversation.
func (t *Translator) compaction(at time.Time, message string) {
	t.ensureRun(at)
	v := map[string]any{}
	if message != "" {
		v["message"] = message
	}
	t.emit(at, map[string]any{"type": agui.TypeCustom, "name": "compaction", "value": v})
}

// threadID is the thread RUN_STARTED names.
func (t *Translator) threadID() string {
	if t.thread == "" {
		return defaultThread
	}
	return t.thread
}

// nextID numbers a message, reasoning or search of the session.
func (t *Translator) nextID(kind string) string {
	t.ids++
	return kind + "-" + strconv.Itoa(t.ids)
}

// emit adds one AG-UI event at time at (none when zero): encoded as JSON
// and decoded back as every AG-UI record is, so it folds exactly as the
// same event read from a log would.
func (t *Translator) emit(at time.Time, ev map[string]any) {
	if t.sub != nil && !sessionWide[ev["type"].(string)] {
		t.startSubagent(at)
		ev["subagentRunId"] = t.sub.run
	}
	if !at.IsZero() {
		ms := at.UnixMilli()
		ev["timestamp"] = ms
		at = time.UnixMilli(ms).UTC()
	}
	raw, err := agui.MarshalEvent(ev)
	if err != nil {
		// Only strings decoded from JSON, numbers, and maps and lists of
		// them are put in events.
		panic("codex: encode event: " + err.Error())
	}
	t.seq++
	t.out = append(t.out, model.Record{Seq: t.seq, At: at, Proto: model.ProtoAGUI, Raw: raw,
		Event: agui.Decode(raw), Thread: t.thread})
}

// isContext reports whether a user message is context Codex adds for the
// model (the environment, the project's instructions, a note that a turn
// was aborted) rather than something the user wrote.
func isContext(text string) bool {
	s := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<user_instructions>", "<turn_aborted>",
		"<permissions instructions>", "<user_shell_command>", "# AGENTS.md instructions for "} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
