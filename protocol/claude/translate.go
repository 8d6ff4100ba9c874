package claude

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// maxRemembered bounds what a Translator keeps per session: the run each
// line belongs to (for rewinds) and the calls waiting for results. A
// session longer than that forgets its oldest lines' runs, so a rewind to
// them starts a run without a parent.
const maxRemembered = 1 << 16

// Translator turns a session file's lines into AG-UI records, each naming
// its thread (the session). Feed it bytes as they are appended, or Line
// one complete line at a time. It is pure and not safe for concurrent use;
// the same bytes give the same records however they were cut.
type Translator struct {
	seq     uint64
	partial []byte
	session string
	run     string // the open run, "" when none
	lastRun string
	// runOf is the run each line (by uuid) belongs to, so that a prompt
	// names the run it follows: its parent line's.
	runOf    map[string]string
	runOrder []string
	calls    map[string]string // open tool calls: id → tool name
	compacts map[string]string // compact_boundary uuid → its marker's id
	texts    int               // text blocks seen, to name each its message
	// agent is the subagent run whose line is being read ("" for the
	// session's own lines): every event made is marked as its.
	agent string
	// subagents are the subagent runs started; openSubs those not ended,
	// oldest first; callAgent the subagent each Task or Agent call
	// started, by call id.
	subagents map[string]bool
	openSubs  []string
	callAgent map[string]string
	out       []model.Record
}

// New returns a Translator that has read nothing.
func New() *Translator {
	return &Translator{runOf: map[string]string{}, calls: map[string]string{}, compacts: map[string]string{},
		subagents: map[string]bool{}, callAgent: map[string]string{}}
}

// Feed reads bytes appended to a session file and returns the records of
// the lines they complete. A last line without its newline waits for the
// rest, as a tail waits for a line being written.
func (t *Translator) Feed(b []byte) []model.Record {
	t.partial = append(t.partial, b...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.line(t.partial[:i])
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) == 0 {
		t.partial = nil
	}
	return t.take()
}

// Line reads one complete line and returns its records (none for a line
// that shows nothing: bookkeeping, an unknown type, a line that is not JSON).
func (t *Translator) Line(b []byte) []model.Record {
	t.line(b)
	return t.take()
}

// Pending reports whether a line without its newline waits in Feed.
func (t *Translator) Pending() bool { return len(bytes.TrimSpace(t.partial)) > 0 }

func (t *Translator) take() []model.Record {
	out := t.out
	t.out = nil
	return out
}

func (t *Translator) line(b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return
	}
	var l Line
	if json.Unmarshal(b, &l) != nil {
		return
	}
	if l.SessionID != "" && t.session == "" {
		t.session = l.SessionID
	}
	at := parseTime(l.Timestamp)
	switch l.Type {
	case "user":
		t.user(&l, at)
	case "assistant":
		t.assistant(&l, at)
	case "system":
		t.system(&l, at)
	case "summary":
		t.title(at, "summary", l.Summary)
	case "ai-title":
		t.title(at, "ai-title", l.AITitle)
	case "custom-title":
		t.title(at, "custom-title", l.CustomTitle)
	}
	// Every other type (queue-operation, file-history-snapshot, progress,
	// attachment, last-prompt, permission-mode, a type added later) is
	// bookkeeping of Claude Code's: it shows nothing, and is no problem.
	t.remember(l.UUID)
}

// remember notes the run a line belongs to, so a later prompt whose parent
// it is knows which run it follows.
func (t *Translator) remember(uuid string) {
	if uuid == "" || t.lastRun == "" {
		return
	}
	if _, ok := t.runOf[uuid]; !ok {
		if len(t.runOrder) == maxRemembered {
			delete(t.runOf, t.runOrder[0])
			t.runOrder = t.runOrder[1:]
		}
		t.runOrder = append(t.runOrder, uuid)
	}
	t.runOf[uuid] = t.lastRun
}

// emit adds one AG-UI event at time at (none when zero): encoded as JSON
// and decoded back as every AG-UI record is, so it folds exactly as the
// same event read from a log would.
func (t *Translator) emit(at time.Time, ev map[string]any) {
	if t.agent != "" {
		if _, ok := ev["subagentRunId"]; !ok {
			ev["subagentRunId"] = t.agent
		}
	}
	if !at.IsZero() {
		ev["timestamp"] = at.UnixMilli()
		at = time.UnixMilli(at.UnixMilli()).UTC()
	}
	raw, err := agui.MarshalEvent(ev)
	if err != nil {
		// Only strings, numbers, raw JSON and maps and lists of them are
		// put in events.
		panic("claude: encode event: " + err.Error())
	}
	t.seq++
	t.out = append(t.out, model.Record{Seq: t.seq, At: at, Proto: model.ProtoAGUI, Raw: raw, Event: agui.Decode(raw), Thread: t.session})
}

// startRun ends the open run and starts one for the prompt line l: its
// parent is the run of the line the prompt follows, so a prompt written
// after a rewind starts a branch of the run tree.
func (t *Translator) startRun(l *Line, at time.Time) {
	t.endRun(at)
	id := "run-" + l.UUID
	if l.UUID == "" {
		id = "run-" + itoa(t.seq+1)
	}
	ev := map[string]any{"type": "RUN_STARTED", "threadId": t.threadID(), "runId": id}
	if parent := t.runOf[l.ParentUUID]; parent != "" {
		ev["parentRunId"] = parent
	} else if l.ParentUUID == "" && t.lastRun != "" {
		// After a compaction the chain starts again from null: the run
		// goes on from the last one.
		ev["parentRunId"] = t.lastRun
	}
	t.emit(at, ev)
	t.run, t.lastRun = id, id
}

// ensureRun opens a run for lines that come before any prompt (a session
// resumed, a file cut at its start).
func (t *Translator) ensureRun(l *Line, at time.Time) {
	if t.run == "" {
		t.startRun(l, at)
	}
}

// endRun finishes the open run; calls still waiting stay as they are (a
// result may come later and still completes its step).
func (t *Translator) endRun(at time.Time) {
	if t.run == "" {
		return
	}
	t.closeSubs(at)
	t.emit(at, map[string]any{"type": "RUN_FINISHED", "threadId": t.threadID(), "runId": t.run})
	t.run = ""
}

func (t *Translator) threadID() string {
	if t.session == "" {
		return "claude-session"
	}
	return t.session
}

// parseTime reads a line's ISO timestamp (zero when it has none).
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return at
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
