package otel

import (
	"cmp"
	"slices"
	"time"
)

// A tool decision and its result are two halves of one call: Claude Code
// logs the decision (tool_decision) just before the tool runs, and the
// result (tool_result, whose duration_ms says when the tool started) when
// it ends, and neither names the call. They come in one request or in
// two, in either order; the halves are joined into one step all the same.
// A half that names the call (tool_use_id, Codex's call_id) is joined by
// that; else a decision is joined with a result of the same tool, in the
// same run, that started within joinWindow after it: the nearest one.
const (
	// joinWindow bounds the time from a decision to the start of its
	// tool: only the tool's own preparation comes between them.
	joinWindow = 2 * time.Second
	// joinSlack is how far a tool's start, read from a result's time and
	// duration in whole milliseconds, may seem to come before its decision.
	joinSlack = 5 * time.Millisecond
	// maxHalves bounds the halves a thread keeps waiting for their other
	// half.
	maxHalves = 256
)

// half is a decision waiting for its result, or a result that came
// without a decision, in a thread: what a later request's half is joined
// with.
type half struct {
	decision bool
	// named says the telemetry named the call; one that did not may be
	// joined by time with a half that names it.
	named  bool
	callID string
	tool   string
	runKey string
	// at is the decision's time, or the tool's start.
	at   time.Time
	used bool
}

// addHalf keeps h for a later request's half, forgetting the oldest.
func (th *threadState) addHalf(h half) {
	th.halves = append(th.halves, h)
	if len(th.halves) > maxHalves {
		th.halves = slices.Delete(th.halves, 0, len(th.halves)-maxHalves)
	}
}

// fits reports whether a decision at d and a tool that started at start
// can be one call.
func fits(d, start time.Time) bool {
	return !d.After(start.Add(joinSlack)) && !start.After(d.Add(joinWindow))
}

// join gives each decision and each tool result of obs its call id: the
// other half's, when the other half is in obs or came before, else its
// own (the id the telemetry names, or one made from what it says). A
// decision joined with a result in obs takes the result's arguments, so
// the call it starts shows what it runs.
func (t *Translator) join(obs []observation) {
	var ds, rs []*observation
	for i := range obs {
		switch o := &obs[i]; o.kind {
		case kindDecision:
			ds = append(ds, o)
		case kindTool:
			rs = append(rs, o)
		}
	}
	slices.SortStableFunc(rs, func(a, b *observation) int { return cmp.Compare(a.start.UnixNano(), b.start.UnixNano()) })
	for _, r := range rs {
		if r.callID == "" {
			continue
		}
		for _, d := range ds {
			if !d.paired && d.callID == r.callID && d.place == r.place {
				pair(d, r)
				break
			}
		}
	}
	for _, r := range rs {
		if r.paired {
			continue
		}
		var best *observation
		for _, d := range ds {
			if !d.paired && d.place == r.place && d.name == r.name && d.runKey == r.runKey &&
				(d.callID == "" || r.callID == "") && fits(d.end, r.start) && (best == nil || d.end.After(best.end)) {
				best = d
			}
		}
		if best != nil {
			pair(best, r)
			continue
		}
		t.joinEarlier(r, true)
	}
	for _, d := range ds {
		if !d.paired {
			t.joinEarlier(d, false)
		}
	}
	for _, o := range append(ds, rs...) {
		if o.callID == "" {
			o.callID = "call-" + o.digest()
		}
	}
}

// pair makes a decision and a result one call.
func pair(d, r *observation) {
	id := r.callID
	if id == "" {
		id = d.callID
	}
	if id == "" {
		id = "call-" + d.digest()
	}
	d.callID, r.callID = id, id
	d.paired, r.paired = true, true
	if !d.hasArgs {
		d.args, d.hasArgs = r.args, r.hasArgs
	}
}

// joinEarlier joins o, a result when result is set, else a decision, with
// the other half of its call kept from an earlier request: for a result
// the latest decision before its start, for a decision the first result
// that started after it.
func (t *Translator) joinEarlier(o *observation, result bool) {
	if !o.fromLog {
		return
	}
	th := t.thread(o.place)
	if o.callID != "" {
		if _, ok := th.calls.get(o.callID); ok {
			return
		}
	}
	best := -1
	for i, h := range th.halves {
		if h.used || h.decision != result || h.tool != o.name || h.runKey != o.runKey || (o.named && h.named && o.callID != h.callID) {
			continue
		}
		var ok, better bool
		if result {
			ok = fits(h.at, o.start)
			better = best < 0 || h.at.After(th.halves[best].at)
		} else {
			ok = fits(o.end, h.at)
			better = best < 0 || h.at.Before(th.halves[best].at)
		}
		if ok && better {
			best = i
		}
	}
	if best < 0 {
		return
	}
	th.halves[best].used = true
	o.callID, o.paired = th.halves[best].callID, true
}
