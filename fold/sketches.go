package fold

import (
	"fmt"
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/model"
)

// stepSketch is what a fold keeps of a step Trim forgot: what a step
// timeline, a filter, a run tree and a thread list draw of it.
type stepSketch struct {
	Status        model.Status   `json:"status"`
	Category      model.Category `json:"category"`
	ToolName      string         `json:"toolName,omitempty"`
	RunID         string         `json:"runId,omitempty"`
	SubagentRunID string         `json:"subagentRunId,omitempty"`
}

// sketches hold a sketch of every step Trim forgot, in order: a code
// per step (two bytes) naming one of a few distinct sketches. Codes only
// grow, in a persist.List that checkpoints share (share): one taken after
// every Trim copies at most a block of 4,096 codes.
type sketches struct {
	Codes persist.List[uint16] `json:"codes"`
	Kinds []stepSketch         `json:"kinds"`
	// byKey finds a sketch's code, standIns are the sketches as steps;
	// both are made again from Kinds when needed.
	byKey    map[stepSketch]uint16
	standIns []*model.Step
}

// maxSketchKinds bounds the distinct sketches; past it, a new sketch keeps
// only the status and category.
const maxSketchKinds = 1 << 15

// add keeps a sketch of step s, the next step dropped.
func (k *sketches) add(s *model.Step) {
	k.addSketch(stepSketch{Status: s.Status, Category: s.Category, ToolName: s.ToolName, RunID: s.RunID, SubagentRunID: s.SubagentRunID})
}

// pad stands in for steps dropped without a sketch (by a fold of an
// earlier build) up to n: their status is not known.
func (k *sketches) pad(n int) {
	for k.Codes.Len() < n {
		k.addSketch(stepSketch{Category: model.CategoryOther})
	}
}

func (k *sketches) addSketch(sk stepSketch) {
	if k.byKey == nil {
		k.byKey = make(map[stepSketch]uint16, len(k.Kinds))
		for i, x := range k.Kinds {
			k.byKey[x] = uint16(i)
		}
	}
	code, ok := k.byKey[sk]
	if !ok && len(k.Kinds) >= maxSketchKinds {
		sk = stepSketch{Status: sk.Status, Category: sk.Category}
		code, ok = k.byKey[sk]
	}
	if !ok {
		code = uint16(len(k.Kinds))
		k.Kinds = append(k.Kinds, sk)
		k.byKey[sk] = code
	}
	k.Codes.Append(code)
}

// check reports sketches a fold could not have written for stepBase
// dropped steps: more codes than steps, or a code naming no sketch.
func (k *sketches) check(stepBase int) error {
	if n := k.Codes.Len(); n > stepBase {
		return fmt.Errorf("%d step sketches for %d forgotten steps", n, stepBase)
	}
	for _, c := range k.Codes.All() {
		if int(c) >= len(k.Kinds) {
			return fmt.Errorf("a step sketch code %d of %d sketches", c, len(k.Kinds))
		}
	}
	return nil
}

// standIn is the sketch of dropped step i as a step, shared by every step
// of the same sketch; nil when there is none.
func (k *sketches) standIn(i int) *model.Step {
	if i < 0 || i >= k.Codes.Len() || int(k.Codes.At(i)) >= len(k.Kinds) {
		return nil
	}
	for j := len(k.standIns); j < len(k.Kinds); j++ {
		x := k.Kinds[j]
		k.standIns = append(k.standIns, &model.Step{Index: -1, Shed: true, Status: x.Status, Category: x.Category,
			ToolName: x.ToolName, RunID: x.RunID, SubagentRunID: x.SubagentRunID})
	}
	return k.standIns[k.Codes.At(i)]
}

// share returns the sketches for a checkpoint or a restored fold: the
// same codes and sketches, which the next add copies before it grows
// them (the codes' last block only).
func (k *sketches) share() sketches {
	return sketches{Codes: k.Codes.Share(), Kinds: slices.Clip(k.Kinds)}
}
