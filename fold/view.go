package fold

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// ThreadID returns the thread the fold shows ("" until a run names it).
func (f *Fold) ThreadID() string { return f.st.ThreadID }

// LastSeq returns the Seq of the last record applied.
func (f *Fold) LastSeq() uint64 { return f.st.LastSeq }

// ItemsMade is how many display items the fold has made, shed ones
// included: the Seq of the newest. An item numbered above what a fold had
// made when it was checkpointed is whole in any fold restored from it.
func (f *Fold) ItemsMade() uint64 { return f.st.NextItem }

// Items returns the display items in order. The items are the fold's own:
// read them, do not change them.
func (f *Fold) Items() []*model.Item { f.flush(); return f.st.Display.Items }

// Steps returns the agent computer's steps in order (the fold's own; read
// only): every step, unless Trim forgot the oldest, in which case the
// first has Index StepBase.
func (f *Fold) Steps() []*model.Step { return f.st.Display.Steps }

// StepBase returns how many of the oldest steps Trim forgot: the Index
// of the first step Steps returns.
func (f *Fold) StepBase() int { return f.st.Display.StepBase }

// Step returns the step with Index i, nil when there is none or Trim
// forgot it.
func (f *Fold) Step(i int) *model.Step { return f.st.Display.stepNo(i) }

// ForgottenStep returns what the fold keeps of step i, which Trim
// forgot: a step with only its status, category, tool and run, Index -1
// and marked Shed, shared by every forgotten step alike (read only). It is
// nil when step i was not forgotten.
func (f *Fold) ForgottenStep(i int) *model.Step { return f.st.Display.Sketches.standIn(i) }

// StepCount returns how many steps the fold has made, dropped ones included.
func (f *Fold) StepCount() int { return f.st.Display.nextStep() }

// Runs returns the runs in the order they started (the fold's own; read only).
func (f *Fold) Runs() []*model.Run { return f.st.Display.Runs }

// Diagnostics returns every rule violation found so far.
func (f *Fold) Diagnostics() []Diagnostic { return f.st.Diagnostics }

// Warnings returns the faults the reference reducer tolerates.
func (f *Fold) Warnings() []Warning { return f.st.Warnings }

// Messages returns the conversation in AG-UI wire shape, as the reference
// client's defaultApplyEvents would hold it (the fold's own; read only).
func (f *Fold) Messages() []*agui.Message { f.flush(); return f.st.Reduce.Messages }

// State returns the agent state document as JSON.
func (f *Fold) State() jsontext.Value { f.flush(); return f.st.Reduce.State.JSON() }

// Result is the headless summary of a fold, as `agentwatch fold` prints it.
// Messages and State use the AG-UI wire shapes.
type Result struct {
	// ThreadID is the thread the fold shows ("" when no run named one).
	ThreadID    string          `json:"threadId"`
	Messages    []*agui.Message `json:"messages"`
	State       jsontext.Value  `json:"state"`
	Steps       []*model.Step   `json:"steps"`
	Runs        []*model.Run    `json:"runs"`
	Diagnostics []Diagnostic    `json:"diagnostics"`
	Warnings    []Warning       `json:"warnings"`
}

// Summary returns the fold's Result.
func (f *Fold) Summary() Result {
	r := Result{ThreadID: f.ThreadID(), Messages: f.Messages(), State: f.State(), Steps: f.Steps(), Runs: f.Runs(), Diagnostics: f.Diagnostics(), Warnings: f.Warnings()}
	if r.Messages == nil {
		r.Messages = []*agui.Message{}
	}
	if r.Steps == nil {
		r.Steps = []*model.Step{}
	}
	if r.Runs == nil {
		r.Runs = []*model.Run{}
	}
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	if r.Warnings == nil {
		r.Warnings = []Warning{}
	}
	return r
}

// RunNode is a run and the runs that continue it (RUN_STARTED.parentRunId).
type RunNode struct {
	Run      *model.Run
	Children []*RunNode
}

// RunTree returns the thread's runs as a forest: runs without a known
// parent are roots, children in the order they started. A parent id that
// names no run of this fold makes its run a root.
func (f *Fold) RunTree() []*RunNode {
	nodes := make(map[string]*RunNode, len(f.st.Display.Runs))
	var roots []*RunNode
	for _, r := range f.st.Display.Runs {
		n := &RunNode{Run: r}
		parent, ok := nodes[r.ParentRunID]
		if r.ParentRunID == "" || !ok || r.ParentRunID == r.RunID {
			roots = append(roots, n)
		} else {
			parent.Children = append(parent.Children, n)
		}
		if _, dup := nodes[r.RunID]; !dup {
			nodes[r.RunID] = n
		}
	}
	return roots
}
