package otel

import (
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
// the call it starts shows what it runs. What it does for each half does
// not grow with obs: a file read whole is one obs.
func (t *Translator) join(obs []observation) {
	type callKey struct{ place, id string }
	type toolKey struct{ place, tool, run string }
	byID := map[callKey][]*observation{}
	byTool := map[toolKey][]*observation{}
	var ds, rs []*observation
	for i := range obs {
		switch o := &obs[i]; o.kind {
		case kindDecision:
			ds = append(ds, o)
			if o.callID != "" {
				k := callKey{o.place.id(), o.callID}
				byID[k] = append(byID[k], o)
			}
			k := toolKey{o.place.id(), o.name, o.runKey}
			byTool[k] = append(byTool[k], o)
		case kindTool:
			rs = append(rs, o)
		}
	}
	for _, d := range byTool {
		slices.SortStableFunc(d, func(a, b *observation) int { return a.end.Compare(b.end) })
	}
	slices.SortStableFunc(rs, func(a, b *observation) int { return a.start.Compare(b.start) })
	for _, r := range rs {
		if r.callID == "" {
			continue
		}
		k := callKey{r.place.id(), r.callID}
		for i, d := range byID[k] {
			if !d.paired {
				pair(d, r)
				byID[k] = byID[k][i+1:]
				break
			}
		}
	}
	for _, r := range rs {
		if r.paired {
			continue
		}
		if d := nearestDecision(byTool[toolKey{r.place.id(), r.name, r.runKey}], r); d != nil {
			pair(d, r)
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

// nearestDecision is the latest decision of ds (in time order) not yet
// joined that result r can be one call with.
func nearestDecision(ds []*observation, r *observation) *observation {
	i, _ := slices.BinarySearchFunc(ds, r.start.Add(joinSlack), func(d *observation, at time.Time) int {
		if d.end.After(at) {
			return 1
		}
		return -1
	})
	for i--; i >= 0; i-- {
		d := ds[i]
		if !fits(d.end, r.start) {
			return nil
		}
		if !d.paired && (d.callID == "" || r.callID == "") {
			return d
		}
	}
	return nil
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
