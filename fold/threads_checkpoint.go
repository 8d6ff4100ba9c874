package fold

import (
	"maps"

	"github.com/agentwatch/agentwatch/model"
)

// ThreadsCheckpoint is a Threads' state kept in memory for seeking, as
// Checkpoint is a Fold's: ThreadsFromCheckpoint gives a set that goes on
// exactly as the original did from that point. A thread that got no
// records since the set's previous checkpoint shares that checkpoint's
// fold checkpoint, so checkpoints of many quiet threads cost little.
type ThreadsCheckpoint struct {
	threads []threadCheckpoint
	sources map[string]routeCheckpoint
	last    int // index of Threads.last, -1 for none
}

type threadCheckpoint struct {
	th Thread // its fields, Fold and cp aside
	cp *Checkpoint
}

// routeCheckpoint is a sourceRoute with threads as indexes (-1 for none).
type routeCheckpoint struct {
	open, last, unnamed int
	openRun             string
	requests            map[string]int
}

// Checkpoint returns the set's state for seeking back to it later. From
// here on each fold copies what it changes, so the checkpoint stays as it
// is.
func (t *Threads) Checkpoint() *ThreadsCheckpoint {
	cp := &ThreadsCheckpoint{threads: make([]threadCheckpoint, len(t.list)), sources: make(map[string]routeCheckpoint, len(t.sources)), last: t.Index(t.last)}
	for i, th := range t.list {
		if th.cp == nil || th.cp.sheds != th.Fold.sheds {
			th.cp = th.Fold.Checkpoint()
		}
		c := *th
		c.Fold, c.cp = nil, nil
		cp.threads[i] = threadCheckpoint{th: c, cp: th.cp}
	}
	for name, src := range t.sources {
		r := routeCheckpoint{open: t.Index(src.open), last: t.Index(src.last), unnamed: t.Index(src.unnamed), openRun: src.openRun,
			requests: make(map[string]int, len(src.requests))}
		for k, th := range src.requests {
			r.requests[k] = t.Index(th)
		}
		cp.sources[name] = r
	}
	return cp
}

// ThreadsFromCheckpoint returns a set in the checkpoint's state, whose
// folds use opts (which should be those of the set that took it). It can
// be called any number of times on the same checkpoint, from any
// goroutine; the sets it returns are independent.
func ThreadsFromCheckpoint(cp *ThreadsCheckpoint, opts Options) *Threads {
	t := NewThreads(opts)
	t.list = make([]*Thread, len(cp.threads))
	for i, c := range cp.threads {
		th := c.th
		th.Fold, th.cp = FromCheckpoint(c.cp, opts), c.cp
		t.list[i] = &th
		if th.ID != "" {
			t.byKey[threadKey{th.Source, th.ID}] = &th
		}
	}
	at := func(i int) *Thread {
		if i < 0 {
			return nil
		}
		return t.list[i]
	}
	for name, r := range cp.sources {
		src := &sourceRoute{name: name, open: at(r.open), last: at(r.last), unnamed: at(r.unnamed), openRun: r.openRun,
			requests: make(map[string]*Thread, len(r.requests))}
		for k, i := range maps.All(r.requests) {
			src.requests[k] = at(i)
		}
		t.sources[name] = src
	}
	t.last = at(cp.last)
	return t
}

// ItemsMade is how many display items the thread id of source had made
// when the checkpoint was taken (Fold.ItemsMade), and whether it had begun.
func (cp *ThreadsCheckpoint) ItemsMade(source, id string) (uint64, bool) {
	if c := cp.thread(source, id); c != nil {
		return c.cp.st.NextItem, true
	}
	return 0, false
}

// StepsMade is how many steps the thread id of source had when the
// checkpoint was taken (Fold.StepCount), and whether it had begun.
func (cp *ThreadsCheckpoint) StepsMade(source, id string) (int, bool) {
	if c := cp.thread(source, id); c != nil {
		return c.cp.st.Display.StepBase + c.cp.lists.steps.Len(), true
	}
	return 0, false
}

// Items are the display items the thread id of source held when the
// checkpoint was taken, shared with it: not to be changed.
func (cp *ThreadsCheckpoint) Items(source, id string) []*model.Item {
	if c := cp.thread(source, id); c != nil {
		return c.cp.lists.items.Slice()
	}
	return nil
}

// thread is the checkpoint of the thread id of source (nil for none).
func (cp *ThreadsCheckpoint) thread(source, id string) *threadCheckpoint {
	for i := range cp.threads {
		if c := &cp.threads[i]; c.th.Source == source && c.th.ID == id {
			return c
		}
	}
	return nil
}
