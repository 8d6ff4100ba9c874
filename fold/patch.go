package fold

import (
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/statedoc"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// stateDelta applies a STATE_DELTA to the state in place, all or nothing
// (statedoc): a patch that does not apply is a warning, as the reference
// logs it, and one that would nest the state deeper than agui.MaxDepth is
// a problem; neither changes the state.
func (r *reduceState) stateDelta(e *agui.StateDelta, warn warnf) *violation {
	if r.cow != r.stateShared {
		// A checkpoint taken or restored since the last delta (each starts
		// a new cow) may hold the state's containers: copy before changing.
		r.State.Share()
		r.stateShared = r.cow
	}
	err := r.State.Apply(e.Delta)
	if deep := (*statedoc.DepthError)(nil); errors.As(err, &deep) {
		return fail(RuleTooDeep, "%s: %s", agui.TypeStateDelta, deep)
	}
	if err != nil {
		warn("Failed to apply state patch: %v", err)
	}
	return nil
}

// applyPatch applies an RFC 6902 patch atomically (agui.ApplyPatch), for
// activity content, which is small and patched rarely.
func applyPatch(doc, patch jsontext.Value) (jsontext.Value, error) {
	return agui.ApplyPatch(doc, patch)
}
