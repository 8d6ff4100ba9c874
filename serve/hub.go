package serve

import (
	"slices"
	"strings"
	"sync"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/window"
)

// Hub is where the live sources of a server meet its viewers: each source
// is read once, by one goroutine, and every batch it sends is kept, in
// order, in one log that viewers read and nobody changes. The log does not
// wait for its readers (see Follow).
//
// The log keeps a window, not every record: the hub folds what it is sent
// once, as a screen folds it (trimmed to what a screen keeps), and every
// so often (a window's worth of records or bytes) keeps a checkpoint of
// that fold and lets go of the batches before the checkpoint it kept last.
// A viewer joining takes up the latest checkpoint and reads the log on
// from there; what the checkpoint let go of, its screen reads back from
// the source's file as it reads back what it let go of itself. So the hub
// holds one fold, one checkpoint and at most two windows of batches however
// long the sources run, and a viewer joining late folds a window, not the
// whole log.
type Hub struct {
	fo fold.Options
	// limit is how much a window holds before a checkpoint is kept, keep
	// what the hub's fold keeps of each thread.
	limit windowLimit
	keep  fold.Keep

	// folding is held by Publish while it folds a batch and puts it in the
	// log, so that each checkpoint folds exactly the batches before it.
	folding sync.Mutex
	threads *fold.Threads
	// filled is what was published since the latest checkpoint.
	filled windowLimit

	mu sync.Mutex
	// batches are the log's kept batches, from position base of the whole
	// log on; join is where a viewer joining now starts (join.at ≥ base).
	batches []model.Batch
	base    int
	join    joinPoint
	// glances is each source's latest glance, in the order the sources
	// were first glanced at, and folded the sources that sent records: a
	// viewer joining is given the glances of sources not folded yet.
	glances []model.Batch
	folded  map[string]bool
	// open counts the sources still sending; when it reaches 0 the log
	// is complete and viewers are told the input ended.
	open int
	// status is each source's latest status, in the order sources first
	// spoke; statusGen counts changes.
	status    []sourceStatus
	statusGen int
	// wake is closed, and replaced, whenever something above changes.
	wake chan struct{}
}

// windowLimit is an amount of the log: records and the bytes they were
// read from.
type windowLimit struct{ records, bytes int }

// hubWindow is how much of the log a window holds: the hub keeps one to
// two windows of batches. 16,384 records are 3 MB of a typical log (about
// 15 MB decoded), folded by a viewer joining in a few tens of
// milliseconds; the bytes bound the window when events are big.
var hubWindow = windowLimit{records: 16384, bytes: 8 << 20}

// hubKeep is what a hub's fold keeps of each thread: what a screen keeps.
var hubKeep = window.ScreenKeep

// joinPoint is where a viewer starts: the hub's fold at position at of the
// log (nil at the log's start), and the glances of the sources that fold
// had not folded yet.
type joinPoint struct {
	at      int
	threads *fold.ThreadsCheckpoint
	glances []model.Batch
}

// sourceStatus is one source's latest words for the title bar.
type sourceStatus struct{ source, text string }

// NewHub is a hub expecting sources sources, each calling End once it has
// nothing more to send, whose fold uses fo (the viewers' screens' own fold
// options, so a viewer can fold on from the hub's checkpoints).
func NewHub(sources int, fo fold.Options) *Hub {
	return &Hub{fo: fo, limit: hubWindow, keep: hubKeep, threads: fold.NewThreads(fo), folded: map[string]bool{},
		open: sources, wake: make(chan struct{})}
}

// Publish folds a source's batch into the hub's fold, adds it to the log
// and wakes the viewers. The batch's records are shared with every viewer
// and must not change.
func (h *Hub) Publish(b model.Batch) {
	h.folding.Lock()
	defer h.folding.Unlock()
	foldBatch(h.threads, b, h.keep)
	h.filled.records += len(b.Records)
	for _, r := range b.Records {
		h.filled.bytes += len(r.Raw)
	}
	var cp *fold.ThreadsCheckpoint
	if h.filled.records >= h.limit.records || h.filled.bytes >= h.limit.bytes {
		cp, h.filled = h.threads.Checkpoint(), windowLimit{}
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = append(h.batches, b)
	h.noteGlanceLocked(b)
	if cp != nil {
		h.moveJoinLocked(cp)
	}
	h.wakeLocked()
}

// moveJoinLocked makes cp, the fold of the whole log, the join point, and
// lets go of the batches before the join point it replaces: a viewer still
// reading those has fallen a window behind.
func (h *Hub) moveJoinLocked(cp *fold.ThreadsCheckpoint) {
	end := h.base + len(h.batches)
	// A fresh array: viewers may still hold the old one's batches.
	h.batches = slices.Clone(h.batches[h.join.at-h.base:])
	h.base = h.join.at
	var glances []model.Batch
	for _, g := range h.glances {
		if !h.folded[g.Source] {
			glances = append(glances, g)
		}
	}
	h.join = joinPoint{at: end, threads: cp, glances: glances}
}

// noteGlanceLocked keeps b's glance, or notes that b's source is folded.
func (h *Hub) noteGlanceLocked(b model.Batch) {
	if len(b.Records) > 0 {
		h.folded[b.Source] = true
	}
	if b.Glance == nil {
		return
	}
	g := model.Batch{Source: b.Source, Glance: b.Glance}
	for i := range h.glances {
		if h.glances[i].Source == b.Source {
			h.glances[i] = g
			return
		}
	}
	h.glances = append(h.glances, g)
}

// SetStatus records what source says of itself now.
func (h *Hub) SetStatus(source, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.status {
		if h.status[i].source == source {
			if h.status[i].text == text {
				return
			}
			h.status[i].text = text
			h.statusGen++
			h.wakeLocked()
			return
		}
	}
	h.status = append(h.status, sourceStatus{source, text})
	h.statusGen++
	h.wakeLocked()
}

// End says one source has sent all it will.
func (h *Hub) End() {
	h.mu.Lock()
	h.open--
	h.wakeLocked()
	h.mu.Unlock()
}

// wakeLocked wakes everyone waiting for a change.
func (h *Hub) wakeLocked() {
	close(h.wake)
	h.wake = make(chan struct{})
}

// Run reads one source into the hub until its channels close: its batches
// into the log, its status (nil when it has none) into the title bars. It
// ends the source when both are done.
func (h *Hub) Run(name string, batches <-chan model.Batch, status <-chan string) {
	var wg sync.WaitGroup
	if status != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range status {
				h.SetStatus(name, s)
			}
		}()
	}
	for b := range batches {
		h.Publish(b)
	}
	wg.Wait()
	h.End()
}

// view is what a viewer at position from of the log, having seen status
// generation seen, has still to take.
type view struct {
	batches   []model.Batch
	status    string
	statusGen int
	ended     bool
	// behind says the batches after from are no longer kept.
	behind bool
	wake   <-chan struct{}
}

// since returns what is new for a viewer at from that has seen status
// generation seen. The batches returned are the log's own: a later
// append never writes where they are.
func (h *Hub) since(from, seen int) view {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := view{statusGen: h.statusGen, ended: h.open <= 0, wake: h.wake}
	if from < h.base {
		v.behind = true
		return v
	}
	n := len(h.batches)
	v.batches = h.batches[from-h.base : n : n]
	if seen != h.statusGen {
		v.status = h.statusTextLocked()
	}
	return v
}

// joinNow is where a viewer joining now starts.
func (h *Hub) joinNow() joinPoint {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.join
}

// statusTextLocked is the title bar's words for all sources: one
// source's own, or each source's different words joined.
func (h *Hub) statusTextLocked() string {
	var texts []string
	for _, s := range h.status {
		if s.text != "" && !slices.Contains(texts, s.text) {
			texts = append(texts, s.text)
		}
	}
	return strings.Join(texts, " · ")
}
