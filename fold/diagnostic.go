package fold

import "errors"

// Rule names the check a diagnostic reports. Rules R1–R14 follow the
// reference verifier (`verifyEvents` in @ag-ui/client 1.0); the others cover
// input the verifier never sees because the reference would have thrown
// earlier (unreadable or malformed events, bad chunks) or that only this fold
// checks (thread correlation).
type Rule string

// The rules.
const (
	RuleFirstEvent     Rule = "R1-first-event"       // the first event must be RUN_STARTED (or RUN_ERROR)
	RuleAfterError     Rule = "R2-after-run-error"   // after RUN_ERROR only RUN_STARTED
	RuleAfterFinish    Rule = "R3-after-run-finish"  // after RUN_FINISHED only RUN_STARTED or RUN_ERROR
	RuleRunActive      Rule = "R4-run-active"        // RUN_STARTED while a run is active
	RuleTextOpen       Rule = "R5-text-open"         // TEXT_MESSAGE_START for an open id
	RuleTextNotOpen    Rule = "R6-text-not-open"     // CONTENT/END for an id that is not open
	RuleToolCall       Rule = "R7-tool-call"         // TOOL_CALL_START duplicate, ARGS/END not open
	RuleReasoning      Rule = "R8-reasoning"         // reasoning span/message open twice or not open
	RuleStepActive     Rule = "R9-step-active"       // STEP_STARTED for an active step
	RuleStepNotStarted Rule = "R10-step-not-started" // STEP_FINISHED for a step not started (or by another owner)
	RuleFinishOpen     Rule = "R11-finish-open"      // RUN_FINISHED with things still open
	RuleNullField      Rule = "R12-null-field"       // subagentRunId (or another optional field) sent as null
	RuleSubagent       Rule = "R13-subagent"         // subagent lifecycle errors
	RuleOwnership      Rule = "R14-ownership"        // subagentRunId does not match the opener's

	RuleUnreadable  Rule = "unreadable"  // input that is not an event at all
	RuleMalformed   Rule = "malformed"   // a known event type with a malformed field
	RuleChunk       Rule = "chunk"       // a *_CHUNK event that cannot be expanded
	RuleLegacy      Rule = "legacy"      // a THINKING_* event with nothing to continue
	RuleCorrelation Rule = "correlation" // an event for another thread
	// RuleTooDeep: JSON nested deeper than agentwatch reads (agui.MaxDepth),
	// in an event or in the state a STATE_DELTA would make.
	RuleTooDeep Rule = "too-deep"
	// RuleThreadOverlap: a run of one thread started while a run of another
	// thread of the same source was still open (Threads).
	RuleThreadOverlap Rule = "thread-overlap"
)

// Diagnostic is one problem found in the input: which record, what type,
// which rule and a message a user understands. The event it names was not
// applied (except for R1, a missing RUN_STARTED, where dropping the first
// event would only lose data); the fold went on with the next one.
type Diagnostic struct {
	Seq     uint64 `json:"seq"`
	Type    string `json:"type"`
	Rule    Rule   `json:"rule"`
	Message string `json:"message"`
}

// Warning is a fault the reference reducer tolerates with a console warning
// (a patch that does not apply, content for an unknown message). The event
// was applied as far as the reference applies it.
type Warning struct {
	Seq     uint64 `json:"seq"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Errors callers branch on.
var (
	// ErrCorrelation: a record belongs to another thread than the fold's.
	ErrCorrelation = errors.New("event belongs to another thread")
	// ErrNotFresh: Resume or Restore on a fold that has already applied records.
	ErrNotFresh = errors.New("fold is not fresh")
	// ErrResuming: Apply called while a Resume is in progress.
	ErrResuming = errors.New("fold is resuming")
)
