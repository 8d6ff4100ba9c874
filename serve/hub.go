package serve

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/agentwatch/agentwatch/model"
)

// Hub is where the live sources of a server meet its viewers: each source
// is read once, by one goroutine, and every batch it sends is kept, in
// order, in one log that viewers read and nobody changes. A viewer joining
// late reads the log from its start, so it folds what the others folded;
// a viewer that stops reading holds back nobody, since the log does not
// wait for its readers (see Follow).
//
// The log keeps every record its sources sent for as long as the server
// runs, as a replay keeps a whole file: serving a log that never ends
// grows with it.
type Hub struct {
	mu      sync.Mutex
	batches []model.Batch
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

// sourceStatus is one source's latest words for the title bar.
type sourceStatus struct{ source, text string }

// NewHub is a hub expecting sources sources; each calls End once it has
// nothing more to send.
func NewHub(sources int) *Hub {
	return &Hub{open: sources, wake: make(chan struct{})}
}

// Publish adds a source's batch to the log and wakes the viewers. The
// batch's records are shared with every viewer and must not change.
func (h *Hub) Publish(b model.Batch) {
	h.mu.Lock()
	h.batches = append(h.batches, b)
	h.wakeLocked()
	h.mu.Unlock()
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
	wake      <-chan struct{}
}

// since returns what is new for a viewer at from that has seen status
// generation seen. The batches returned are the log's own: a later
// append never writes where they are.
func (h *Hub) since(from, seen int) view {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := view{batches: h.batches[from:len(h.batches):len(h.batches)], statusGen: h.statusGen,
		ended: h.open <= 0, wake: h.wake}
	if seen != h.statusGen {
		v.status = h.statusTextLocked()
	}
	return v
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

// feedDepth is how many batches wait for a viewer's screen at most: a
// screen that is slower than its source (a viewer on a slow link) takes
// them in bursts of this size, and the rest stays in the hub's log.
const feedDepth = 16

// Feed is one viewer's reading of a hub: batches on a channel of its own,
// filled as fast as the viewer's screen takes them, and the sources'
// status as it changes.
type Feed struct {
	// Batches closes when every source has ended and the viewer has taken
	// all, or when the viewer's context ends.
	Batches <-chan model.Batch
	// Status carries the latest status only: a viewer that is behind
	// skips the words it was too late for.
	Status <-chan string
}

// Follow starts a viewer's feed from the start of the log, until ctx
// ends. A viewer that falls behind is never dropped and never
// resynchronised by skipping: it reads on from where it is, in bursts of
// up to feedDepth batches, while the sources and the other viewers go on
// at their own pace.
func (h *Hub) Follow(ctx context.Context) *Feed {
	batches := make(chan model.Batch, feedDepth)
	status := make(chan string, 1)
	go func() {
		defer close(batches)
		defer close(status)
		pos, seen := 0, 0
		for {
			v := h.since(pos, seen)
			if v.statusGen != seen {
				seen = v.statusGen
				latest(status, v.status)
			}
			for _, b := range v.batches {
				select {
				case batches <- b:
					pos++
				case <-ctx.Done():
					return
				}
			}
			if len(v.batches) > 0 {
				continue // more may have come meanwhile
			}
			if v.ended {
				return
			}
			select {
			case <-v.wake:
			case <-ctx.Done():
				return
			}
		}
	}()
	return &Feed{Batches: batches, Status: status}
}

// latest puts s on a channel of capacity 1 that only this goroutine
// writes, replacing what its reader has not taken yet.
func latest(ch chan string, s string) {
	select {
	case <-ch:
	default:
	}
	ch <- s
}
