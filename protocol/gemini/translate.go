package gemini

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/internal/lines"
)

// defaultThread is the thread of a session file whose first record is
// missing.
const defaultThread = "gemini-session"

// maxRemembered bounds what a Translator keeps: the messages it saw (by
// id, with their runs, for upserts and rewinds) and the messages still
// changing. A session longer than that forgets its oldest messages: one
// of those written again shows anew, and a rewind to one starts a run
// without a parent.
const maxRemembered = 1 << 16

// Translator turns the records of one session file into AG-UI records, in
// order. Hand it lines (Line) or bytes as they are appended to the file
// (Write, then Flush at the end): it gives the same records however the
// bytes were cut, since it translates only whole lines. A Translator is
// pure and not safe for concurrent use.
type Translator struct {
	seq  uint64
	torn lines.Buffer // what Write left of a line not yet ended
	out  []model.Record

	// thread is the session's id, from its first record.
	thread string
	// state is what the session says of itself, as the STATE_SNAPSHOT
	// last sent has it (sent, JSON).
	state session
	sent  string

	// run is the open run, "" between runs.
	run string
	// usage is what the open run's responses used, by message.
	usage map[string]Tokens

	// runOf is the run each message seen belongs to ("" for one seen
	// outside any run); order is the messages in the conversation's
	// order, as a rewind cuts it.
	runOf map[string]string
	order []string
	// live is what was shown of each message still changing.
	live map[string]*shown
	// texts numbers messages that have no id.
	texts int

	// subLines gives a subagent's lines (ReadSubagents); subs are the
	// subagents read, by run, and openSubs those whose run is open, in
	// the order they started. Kept by the session's Translator alone.
	subLines SubagentLines
	subs     map[string]*Translator
	// calls are the ids of the calls started in the session's file and
	// its subagents': a file that uses one again starts no second call.
	calls    map[string]bool
	openSubs []*Translator
	// parent is the session's Translator when this one reads a
	// subagent's file: agent is that subagent's run, depth how deep it
	// runs (1 under the session), and run is agent while it is open.
	parent *Translator
	agent  string
	depth  int
}

// session is the thread's state as agentwatch shows it.
type session struct {
	ProjectHash string `json:"projectHash,omitempty"`
	Kind        string `json:"kind,omitempty"`
	Model       string `json:"model,omitempty"`
}

// shown is what was shown of a message.
type shown struct {
	run      string
	text     bool
	thoughts int
	// calls is each tool call's state: false once started, true once its
	// result was shown.
	calls map[string]bool
}

// New returns a Translator that has seen nothing.
func New() *Translator {
	return &Translator{runOf: map[string]string{}, live: map[string]*shown{}, usage: map[string]Tokens{},
		subs: map[string]*Translator{}, calls: map[string]bool{}}
}

// Thread is the session's id ("" until its first record was read).
func (t *Translator) Thread() string { return t.thread }

// Write translates the whole lines in p, after what an earlier Write left
// of a line not yet ended, and keeps the rest for the next Write or Flush.
func (t *Translator) Write(p []byte) []model.Record { return t.torn.Write(p, t.Line) }

// Flush translates what Write left of a last line without its newline.
func (t *Translator) Flush() []model.Record { return t.torn.Flush(t.Line) }

// probe is what tells a record's kind, in the order Gemini CLI's loader
// asks: a rewind, a message, a metadata update, the first record.
type probe struct {
	RewindTo    json.RawMessage `json:"$rewindTo"`
	ID          json.RawMessage `json:"id"`
	Set         json.RawMessage `json:"$set"`
	SessionID   json.RawMessage `json:"sessionId"`
	ProjectHash json.RawMessage `json:"projectHash"`
}

// Line translates one line of a session file (without its newline) and
// returns the records it makes, numbered on from the last. A line that
// shows nothing (a blank line, one that is not JSON, a record of a kind
// this package does not know, bookkeeping) makes none.
func (t *Translator) Line(b []byte) []model.Record {
	t.out = nil
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var p probe
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	switch {
	case isString(p.RewindTo):
		var id string
		_ = json.Unmarshal(p.RewindTo, &id)
		t.rewind(id)
	case isString(p.ID):
		var m Message
		if json.Unmarshal(b, &m) == nil {
			t.message(&m)
		}
	case isObject(p.Set):
		var m Metadata
		if json.Unmarshal(p.Set, &m) == nil {
			t.set(&m)
		}
	case isString(p.SessionID) && isString(p.ProjectHash):
		var m Metadata
		if json.Unmarshal(b, &m) == nil {
			t.header(&m)
		}
	}
	return t.take()
}

func (t *Translator) take() []model.Record {
	out := t.out
	t.out = nil
	return out
}

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }
func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

// header reads the first record: it names the thread. A session resumed
// writes its metadata again; the first names the thread.
func (t *Translator) header(m *Metadata) {
	if t.parent != nil {
		// A subagent's: the session's thread and state stay the session's.
		for _, raw := range m.Messages {
			t.checkpointed(raw)
		}
		return
	}
	if t.thread == "" {
		t.thread = m.SessionID
	}
	t.state.ProjectHash = m.ProjectHash
	if m.Kind != "" {
		t.state.Kind = m.Kind
	}
	for _, raw := range m.Messages {
		t.checkpointed(raw)
	}
}

// set reads a metadata update: a summary is the session's title, a
// checkpoint's messages are read as written again.
func (t *Translator) set(m *Metadata) {
	if t.parent != nil {
		for _, raw := range m.Messages {
			t.checkpointed(raw)
		}
		return
	}
	if m.Summary != "" {
		t.emit(time.Time{}, map[string]any{"type": agui.TypeCustom, "name": "title",
			"value": map[string]any{"title": m.Summary, "source": "summary"}})
	}
	if m.Kind != "" {
		t.state.Kind = m.Kind
	}
	for _, raw := range m.Messages {
		t.checkpointed(raw)
	}
}

// checkpointed reads one message of a checkpoint.
func (t *Translator) checkpointed(raw json.RawMessage) {
	var m Message
	if json.Unmarshal(raw, &m) == nil && m.ID != "" {
		t.message(&m)
	}
}

// rewind drops the message id and every one after it from the
// conversation: the open run ends, and the next prompt follows the
// message before id. An id not seen drops them all, as Gemini CLI's
// loader does.
func (t *Translator) rewind(id string) {
	t.endRun(time.Time{})
	cut := 0
	for i := len(t.order) - 1; i >= 0; i-- {
		if t.order[i] == id {
			cut = i
			break
		}
	}
	t.order = t.order[:cut]
}

// startRun ends the open run and starts one for the prompt message id:
// its parent is the run of the message before it.
func (t *Translator) startRun(at time.Time, id string) {
	if t.parent != nil {
		return // a subagent's lines belong to the session's run
	}
	t.endRun(at)
	t.forgetDone()
	run := "run-" + id
	ev := map[string]any{"type": agui.TypeRunStarted, "threadId": t.threadID(), "runId": run}
	if n := len(t.order); n > 0 {
		if parent := t.runOf[t.order[n-1]]; parent != "" && parent != run {
			ev["parentRunId"] = parent
		}
	}
	t.emit(at, ev)
	t.run = run
	t.sent = ""
	t.sendState(at)
}

// ensureRun opens a run for a message that belongs in one when none is
// open: a session resumed, a file whose prompt was rewound away.
func (t *Translator) ensureRun(at time.Time, id string) {
	if t.run == "" {
		t.startRun(at, id)
	}
}

// endRun finishes the open run with what its responses used; calls still
// running end with it (the fold settles their steps).
func (t *Translator) endRun(at time.Time) {
	if t.run == "" || t.parent != nil {
		return
	}
	t.closeSubagents(at)
	ev := map[string]any{"type": agui.TypeRunFinished, "threadId": t.threadID(), "runId": t.run}
	if u := t.runUsage(); u != nil {
		ev["usage"] = []any{u}
	}
	t.emit(at, ev)
	t.run = ""
	clear(t.usage)
}

// runUsage is what the open run's responses used, summed.
func (t *Translator) runUsage() map[string]any {
	if len(t.usage) == 0 {
		return nil
	}
	var s Tokens
	for _, u := range t.usage {
		s.Input += u.Input
		s.Output += u.Output
		s.Cached += u.Cached
		s.Thoughts += u.Thoughts
		s.Total += u.Total
	}
	m := map[string]any{"provider": "google", "inputTokens": s.Input, "outputTokens": s.Output,
		"totalTokens": s.Total, "cachedInputTokens": s.Cached, "reasoningTokens": s.Thoughts}
	if t.state.Model != "" {
		m["model"] = t.state.Model
	}
	return m
}

// forgetDone forgets the messages whose calls are all done: the run
// moved on, and nothing more of them can show.
func (t *Translator) forgetDone() {
	for id, s := range t.live {
		done := true
		for _, d := range s.calls {
			done = done && d
		}
		if done {
			delete(t.live, id)
		}
	}
}

// remember notes that message id was seen, in the run open now.
func (t *Translator) remember(id string) {
	if _, ok := t.runOf[id]; ok {
		return
	}
	if len(t.order) >= maxRemembered {
		delete(t.runOf, t.order[0])
		t.order = t.order[1:]
	}
	if len(t.runOf) >= 2*maxRemembered {
		// Messages rewound away are still remembered as seen; past this
		// many, forget them all.
		clear(t.runOf)
		for _, o := range t.order {
			t.runOf[o] = ""
		}
	}
	t.order = append(t.order, id)
	t.runOf[id] = t.run
}

// sendState sends the thread's state when it changed since it was last
// sent, within a run.
func (t *Translator) sendState(at time.Time) {
	if t.run == "" || t.parent != nil {
		return
	}
	b, _ := json.Marshal(t.state)
	if string(b) == t.sent || string(b) == "{}" {
		return
	}
	t.sent = string(b)
	var snap map[string]any
	_ = json.Unmarshal(b, &snap)
	t.emit(at, map[string]any{"type": agui.TypeStateSnapshot, "snapshot": snap})
}

// threadID is the thread RUN_STARTED names.
func (t *Translator) threadID() string {
	if t.thread == "" {
		return defaultThread
	}
	return t.thread
}

// emit adds one AG-UI event at time at (none when zero): encoded as JSON
// and decoded back as every AG-UI record is, so it folds exactly as the
// same event read from a log would.
func (t *Translator) emit(at time.Time, ev map[string]any) {
	if t.parent != nil {
		if _, ok := ev["subagentRunId"]; !ok {
			ev["subagentRunId"] = t.agent
		}
		// Message ids are a file's own: a subagent's are told apart from
		// the session's and the other subagents'.
		for _, k := range []string{"messageId", "parentMessageId"} {
			if id, ok := ev[k].(string); ok {
				ev[k] = id + "@" + t.agent
			}
		}
		t.parent.emit(at, ev)
		return
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
		panic("gemini: encode event: " + err.Error())
	}
	t.seq++
	t.out = append(t.out, model.Record{Seq: t.seq, At: at, Proto: model.ProtoAGUI, Raw: raw,
		Event: agui.Decode(raw), Thread: t.thread})
}

// parseTime reads a record's ISO timestamp (zero when it has none).
func parseTime(s string) time.Time {
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return at
}

// nextID numbers something that has no id of its own.
func (t *Translator) nextID(kind string) string {
	if t.parent != nil {
		return t.parent.nextID(kind)
	}
	t.texts++
	return kind + "-" + strconv.Itoa(t.texts)
}
