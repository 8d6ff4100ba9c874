package model

import (
	"encoding/json"
	"strconv"
	"time"
)

// ItemKind says what a display item shows.
type ItemKind string

// The item kinds.
const (
	ItemMessage    ItemKind = "message"    // user, assistant, system or developer text
	ItemReasoning  ItemKind = "reasoning"  // a reasoning message
	ItemToolCall   ItemKind = "tool_call"  // a tool call; its step holds the details
	ItemActivity   ItemKind = "activity"   // an activity message (structured progress)
	ItemRun        ItemKind = "run"        // a run started (and how it ended)
	ItemPhase      ItemKind = "phase"      // an AG-UI STEP_STARTED/FINISHED pair
	ItemSubagent   ItemKind = "subagent"   // a subagent run
	ItemError      ItemKind = "error"      // a RUN_ERROR
	ItemCustom     ItemKind = "custom"     // a CUSTOM event
	ItemRaw        ItemKind = "raw"        // a RAW event
	ItemUnknown    ItemKind = "unknown"    // an event of a type AG-UI does not define
	ItemDiagnostic ItemKind = "diagnostic" // input the fold rejected, with why
	// ItemPlan is the agent's plan (ACP plan): Data holds its entries as a
	// JSON array of PlanEntry, replaced whenever the agent sends a new plan.
	ItemPlan ItemKind = "plan"
	// ItemPermission is the agent asking whether a step may go ahead (ACP
	// session/request_permission): ID is the request's id, Name what it
	// asks to do (Step.Action), Step the step, Data the options as a JSON
	// array of {optionId, name, kind}; open while unanswered, then Text
	// says the answer in words (the Answer… constants, "chose <option>",
	// "cancelled" or "error: <message>").
	ItemPermission ItemKind = "permission"
	// ItemGap stands where a view dropped items to bound its memory (they
	// were shed): Seq is the first missing item's, Text says how many are
	// missing and how to get them back. Views make it; the fold never does.
	ItemGap ItemKind = "gap"
)

// The answers a permission item's Text gives for an option of each kind
// ACP defines.
const (
	AnswerAllowedOnce    = "allowed once"
	AnswerAllowedAlways  = "allowed always"
	AnswerRejected       = "rejected"
	AnswerRejectedAlways = "rejected always"
)

// Item is one row of the transcript. Items appear in the order their first
// event arrived and are updated in place while they stream.
type Item struct {
	// Seq orders items; it is assigned when the item is created and never reused.
	Seq uint64 `json:"seq"`
	// ID is the protocol id the item stands for (message id, tool call id, run id…).
	ID   string   `json:"id"`
	Kind ItemKind `json:"kind"`
	// Status is open while the item streams.
	Status Status `json:"status"`
	// Version increases with every change, for render caches.
	Version uint64 `json:"version"`

	RunID         string `json:"runId,omitempty"`
	SubagentRunID string `json:"subagentRunId,omitempty"`
	// ParentToolCallID is, for a subagent, the tool call that started it.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	Role             string `json:"role,omitempty"`
	// Name is a message author name, a custom event name, a phase or subagent name.
	Name string `json:"name,omitempty"`
	// Text is the message text, reasoning, error or diagnostic message.
	Text string `json:"text,omitempty"`
	// Step is the index into the steps of the tool call this item shows (-1 for none).
	Step int `json:"step"`
	// Data is structured content: activity content, a custom value, a raw or unknown event.
	Data json.RawMessage `json:"data,omitempty"`

	// FirstSeq and LastSeq are the records that created and last changed the item.
	FirstSeq uint64    `json:"firstSeq"`
	LastSeq  uint64    `json:"lastSeq"`
	Started  time.Time `json:"started,omitzero"`
	Updated  time.Time `json:"updated,omitzero"`
}

// Image is a picture attached to a step (a screenshot), kept as the
// producer sent it: inline bytes or a URL, never fetched.
type Image struct {
	MimeType string `json:"mimeType,omitempty"`
	// Data is the decoded image bytes when the producer sent them inline.
	Data []byte `json:"data,omitempty"`
	// URL is where the producer says the image is; agentwatch never fetches it.
	URL string `json:"url,omitempty"`
	// Truncated is set when Data was larger than the fold keeps.
	Truncated bool `json:"truncated,omitempty"`
}

// Step is a tool call seen as an action on the agent's computer.
type Step struct {
	Index      int      `json:"index"`
	ToolCallID string   `json:"toolCallId"`
	ToolName   string   `json:"toolName"`
	Category   Category `json:"category"`
	// Location is the path or URL the step acts on, when upstream says.
	Location string `json:"location,omitempty"`
	Status   Status `json:"status"`
	// Refused is set when the user refused the permission the step asked
	// for (rejected it, or cancelled the request): the step did not run. It
	// is then cancelled, or failed when the agent says so, and never shown
	// completed or running whatever the agent reports after.
	Refused bool `json:"refused,omitempty"`
	// Title is the agent's own one-line description of the step (ACP
	// tool_call.title), shown when the category and location say less.
	Title string `json:"title,omitempty"`
	// Locations are all the files the step acts on (ACP tool_call.locations);
	// Location is the first of them.
	Locations []Location `json:"locations,omitempty"`
	// Pattern is what a search step looks for and Destination where a move
	// step puts what it moves, as the tool's input names them (ACP
	// rawInput): the label says them, and they stay when the input is shed.
	Pattern     string `json:"pattern,omitempty"`
	Destination string `json:"destination,omitempty"`
	// Diffs are the file changes the step made or proposes, one per file.
	Diffs []Diff `json:"diffs,omitempty"`
	// Created is set when the step's change made new files and only those
	// (OnlyNewFiles, as the fold last saw its content): its label says
	// "Created", also once the content is shed.
	Created bool `json:"created,omitzero"`

	MessageID     string `json:"messageId,omitempty"`
	RunID         string `json:"runId,omitempty"`
	SubagentRunID string `json:"subagentRunId,omitempty"`
	// ParentToolCallID is the step whose call started the subagent this
	// step is of ("" for the agent's own steps, and when not known), and
	// Depth how many subagents deep it is (0 for the agent's own): a
	// subagent's steps are shown under the step that started it.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	Depth            int    `json:"depth,omitzero"`
	// Subagent names the subagent this step's call runs ("" for a call
	// that starts none): its steps are the step's own work.
	Subagent string `json:"subagent,omitempty"`
	// SubagentRunning is set while that subagent works, which may be
	// after the call returned (Codex's spawn_agent returns at once).
	SubagentRunning bool `json:"subagentRunning,omitzero"`

	// Args is the argument text as streamed; ArgsJSON is it parsed, when valid JSON.
	Args     string          `json:"args"`
	ArgsJSON json.RawMessage `json:"argsJson,omitempty"`
	// Result is the text of the tool result; ResultJSON the full content when it had parts.
	Result     string          `json:"result,omitempty"`
	ResultJSON json.RawMessage `json:"resultJson,omitempty"`
	HasResult  bool            `json:"hasResult,omitempty"`
	ExitCode   *int            `json:"exitCode,omitempty"`
	// Screenshots are the images of the tool result, in order.
	Screenshots []Image `json:"screenshots,omitempty"`
	// Shed is set when the fold dropped the step's content (Args, ArgsJSON,
	// Result, ResultJSON, Screenshots, Diffs) to bound the memory of a live
	// view; what a timeline draws (status, category, location, names,
	// times, exit code) stays. A view says the content was not kept rather
	// than showing it empty.
	Shed bool `json:"shed,omitzero"`

	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
	// DurationMS is how long the step took, in milliseconds (0 when unknown).
	DurationMS int64  `json:"durationMs,omitempty"`
	FirstSeq   uint64 `json:"firstSeq"`
	LastSeq    uint64 `json:"lastSeq"`
}

// Location is a file a step acts on, and the line in it (1-based, 0 when
// not given).
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// String is the path, with ":line" when the line is known.
func (l Location) String() string {
	if l.Line > 0 {
		return l.Path + ":" + strconv.Itoa(l.Line)
	}
	return l.Path
}

// Diff is a change to one file: its text before (nil for a new file) and after.
type Diff struct {
	Path    string  `json:"path"`
	OldText *string `json:"oldText"`
	NewText string  `json:"newText"`
}

// Duration returns how long the step took (0 when unknown).
func (s *Step) Duration() time.Duration { return time.Duration(s.DurationMS) * time.Millisecond }

// Run is one agent run of the thread; ParentRunID links it into the run tree.
type Run struct {
	ThreadID string `json:"threadId"`
	RunID    string `json:"runId"`
	// Number is the run's place in its session, from 1, when its id means
	// nothing to a person: an ACP run's id is its prompt's JSON-RPC id,
	// which counts every request of the connection. 0 when the id serves.
	Number      int             `json:"number,omitempty"`
	ParentRunID string          `json:"parentRunId,omitempty"`
	Status      Status          `json:"status"`
	Outcome     string          `json:"outcome,omitempty"`
	Error       string          `json:"error,omitempty"`
	ErrorCode   string          `json:"errorCode,omitempty"`
	Result      json.RawMessage `json:"result,omitempty"`
	Usage       json.RawMessage `json:"usage,omitempty"`
	// PendingToolCalls are the calls the run left for the client to answer.
	PendingToolCalls []string  `json:"pendingToolCalls,omitempty"`
	Started          time.Time `json:"started,omitzero"`
	Ended            time.Time `json:"ended,omitzero"`
	FirstSeq         uint64    `json:"firstSeq"`
	LastSeq          uint64    `json:"lastSeq"`
}

// Name is what the run is called on the screen and in --plain: its
// Number when it has one, else its id.
func (r *Run) Name() string {
	if r.Number > 0 {
		return strconv.Itoa(r.Number)
	}
	return r.RunID
}

// Snapshot is a fold's whole state as JSON, independent of the fold it came
// from: later folding never changes it. Restoring it into a fresh fold and
// folding the rest of the records gives what folding everything would.
type Snapshot struct {
	// Version is the snapshot format; a fold refuses a version it does not know.
	Version int             `json:"version"`
	State   json.RawMessage `json:"state"`
}
