package compact

import (
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// collapseState writes a window of STATE_SNAPSHOT and STATE_DELTA events as
// the reference flushState does. A window without a snapshot is written as
// it is: its deltas are relative to a state the window never saw. Otherwise
// the window becomes one STATE_SNAPSHOT: the last snapshot with the deltas
// after it applied (a delta that does not apply is skipped, as the reducer
// skips it), carrying the merged metadata of every event in the window.
func collapseState(window []*model.Record, o *output) {
	if len(window) == 0 {
		return
	}
	last := -1
	for i := len(window) - 1; i >= 0; i-- {
		if window[i].Event.EventType() == agui.TypeStateSnapshot {
			last = i
			break
		}
	}
	if last < 0 {
		for _, r := range window {
			o.pass(r)
		}
		return
	}
	state := member(window[last].Raw, "snapshot")
	for _, r := range window[last+1:] {
		if next, err := applyPatch(state, member(r.Raw, "delta")); err == nil {
			state = next
		}
	}
	var md jsontext.Value
	for _, r := range window {
		md = mergeMetadata(md, member(r.Raw, "metadata"))
	}
	ev := newEvent(agui.TypeStateSnapshot)
	if state != nil {
		ev.set("snapshot", state)
	}
	if md != nil {
		ev.set("metadata", md)
	}
	o.make(ev.encode())
}

// applyPatch applies an RFC 6902 patch atomically, with the options the
// fold uses (fold/patch.go), so a collapsed window ends where the fold's
// state would.
func applyPatch(doc, patch jsontext.Value) (out jsontext.Value, err error) {
	if doc == nil || patch == nil {
		return nil, errors.New("no document or no patch")
	}
	return agui.ApplyPatch(doc, patch)
}
