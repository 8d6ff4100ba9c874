package fold

import (
	"fmt"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// stepSketch is what a fold keeps of a step Forget dropped: what a step
// timeline, a filter, a run tree and a thread list draw of it.
type stepSketch struct {
	Status        model.Status   `json:"status"`
	Category      model.Category `json:"category"`
	ToolName      string         `json:"toolName,omitempty"`
	RunID         string         `json:"runId,omitempty"`
	SubagentRunID string         `json:"subagentRunId,omitempty"`
}

// sketches hold a sketch of every step Forget dropped, in order: a code
// per step (two bytes) naming one of a few distinct sketches. Codes only
// grow, and a checkpoint shares them (share).
type sketches struct {
	Codes codeChunks   `json:"codes"`
	Kinds []stepSketch `json:"kinds"`
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
	for k.Codes.len() < n {
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
	k.Codes.append(code)
}

// check reports sketches a fold could not have written for stepBase
// dropped steps: more codes than steps, or a code naming no sketch.
func (k *sketches) check(stepBase int) error {
	if n := k.Codes.len(); n > stepBase {
		return fmt.Errorf("%d step sketches for %d forgotten steps", n, stepBase)
	}
	for _, ch := range k.Codes.chunks {
		for _, c := range ch {
			if int(c) >= len(k.Kinds) {
				return fmt.Errorf("a step sketch code %d of %d sketches", c, len(k.Kinds))
			}
		}
	}
	return nil
}

// standIn is the sketch of dropped step i as a step, shared by every step
// of the same sketch; nil when there is none.
func (k *sketches) standIn(i int) *model.Step {
	if i < 0 || i >= k.Codes.len() || int(k.Codes.at(i)) >= len(k.Kinds) {
		return nil
	}
	for j := len(k.standIns); j < len(k.Kinds); j++ {
		x := k.Kinds[j]
		k.standIns = append(k.standIns, &model.Step{Index: -1, Shed: true, Status: x.Status, Category: x.Category,
			ToolName: x.ToolName, RunID: x.RunID, SubagentRunID: x.SubagentRunID})
	}
	return k.standIns[k.Codes.at(i)]
}

// share returns the sketches for a checkpoint or a restored fold: the
// same codes and sketches, which the next add copies before it grows
// them (the codes' last chunk only).
func (k *sketches) share() sketches {
	return sketches{Codes: k.Codes.share(), Kinds: slices.Clip(k.Kinds)}
}

// codeChunk is how many codes a chunk holds.
const codeChunk = 4096

// codeChunks are codes in chunks of codeChunk. A full chunk never changes,
// so checkpoints share them: one taken after every Forget copies at most
// a chunk, where one list copied whole made the checkpoints of a long log
// hold its codes once each.
type codeChunks struct {
	chunks [][]uint16
	n      int
}

func (c *codeChunks) len() int { return c.n }

func (c *codeChunks) at(i int) uint16 { return c.chunks[i/codeChunk][i%codeChunk] }

func (c *codeChunks) append(x uint16) {
	k := len(c.chunks) - 1
	switch {
	case k < 0 || len(c.chunks[k]) == codeChunk:
		c.chunks = append(c.chunks, make([]uint16, 0, codeChunk))
		k++
	case len(c.chunks[k]) == cap(c.chunks[k]): // shared (share clipped it)
		c.chunks[k] = append(make([]uint16, 0, codeChunk), c.chunks[k]...)
	}
	c.chunks[k] = append(c.chunks[k], x)
	c.n++
}

// share returns the codes for another fold: the same chunks in a list of
// its own, the last one clipped so that either copies it before adding.
func (c *codeChunks) share() codeChunks {
	chunks := slices.Clone(c.chunks)
	if k := len(chunks) - 1; k >= 0 {
		chunks[k] = slices.Clip(chunks[k])
		c.chunks[k] = slices.Clip(c.chunks[k])
	}
	return codeChunks{chunks: chunks, n: c.n}
}

// MarshalJSONTo writes the codes as one JSON array.
func (c codeChunks) MarshalJSONTo(enc *jsontext.Encoder) error {
	flat := make([]uint16, 0, c.n)
	for _, ch := range c.chunks {
		flat = append(flat, ch...)
	}
	return json.MarshalEncode(enc, flat)
}

// UnmarshalJSONFrom reads codes MarshalJSONTo wrote.
func (c *codeChunks) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var flat []uint16
	if err := json.UnmarshalDecode(dec, &flat); err != nil {
		return err
	}
	*c = codeChunks{}
	for _, x := range flat {
		c.append(x)
	}
	return nil
}
