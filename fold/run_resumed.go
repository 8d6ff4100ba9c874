package fold

import (
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// resumeRun takes up again a run that ended, when a RUN_STARTED names it:
// its entry and its row are the run's own, running again, rather than a
// second run of the same id. A source that learns of a run's work only
// after the run ended (telemetry sent in batches that arrive in any
// order, docs/OTEL.md) starts it again under its own id, so that what
// comes late is shown in the run it belongs to. It reports false for a
// run not seen, or still running.
func (d *displayState) resumeRun(c *ctx, id string) bool {
	run := d.run(id)
	if run == nil || !run.Status.Done() {
		return false
	}
	// Its error stays until it ends otherwise: failing again with the
	// same error is the same failure, not a second one (display.go).
	run.Status, run.Outcome = model.StatusRunning, ""
	run.Ended, run.LastSeq = time.Time{}, c.seq
	// What the run's end said (its usage so far too) is said again when
	// it ends again.
	run.Result, run.PendingToolCalls, run.Usage = nil, nil, nil
	if it := d.item(keyRun(id)); it != nil {
		it.Status = model.StatusOpen
		touch(c, it)
	}
	return true
}

// resumeSubagent takes up again, in a run taken up again, a subagent that
// was running when its run made way: its row is running again, not a
// second row of the same subagent. It reports false for a subagent not
// seen, or still running (which the verifier refuses first).
func (d *displayState) resumeSubagent(c *ctx, id string) bool {
	it := d.item(keySub(id))
	if it == nil || !it.Status.Done() {
		return false
	}
	it.Status = model.StatusOpen
	touch(c, it)
	return true
}
