package replay

import (
	"fmt"

	"github.com/agentwatch/agentwatch/fold"
)

// Release frees the fold Extend keeps to go on from, once the log is whole
// and no more records are expected: on a log of many threads it is as big
// as a checkpoint's worth of every thread. Seeking, reading back and the
// checkpoints are unchanged; an Extend after it rebuilds that fold from the
// last checkpoint first. Only the goroutine that calls Extend may call it.
func (t *Timeline) Release() {
	t.build = nil
}

// resume rebuilds the fold Extend goes on from after Release: the last
// checkpoint, folded on to where the timeline is built. A checkpoint is
// taken right after the timeline sheds, so the fold restored from it is
// the one Extend had there.
func (t *Timeline) resume() error {
	t.mu.Lock()
	c, built := len(t.cps)-1, t.built
	cp := t.cps[c]
	t.mu.Unlock()
	ts := fold.NewThreads(t.opts)
	if c > 0 {
		ts = fold.ThreadsFromCheckpoint(cp, t.opts)
	}
	for i := c * t.every; i < built; {
		j := min(built, i+t.every)
		recs, err := t.src.Records(i, j)
		if err != nil {
			return fmt.Errorf("timeline: records %d–%d: %w", i, j, err)
		}
		ts.Apply(source, recs...)
		i = j
	}
	t.build = ts
	return nil
}
