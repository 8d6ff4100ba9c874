package replay

import "github.com/agentwatch/agentwatch/fold"

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
	cp, from := t.cps[c], c*t.stride
	t.mu.Unlock()
	ts := fold.NewThreads(t.opts)
	if c > 0 {
		ts = fold.ThreadsFromCheckpoint(cp, t.opts)
	}
	if err := t.foldOn(ts, from, built); err != nil {
		return err
	}
	t.build = ts
	return nil
}
