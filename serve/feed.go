package serve

import (
	"context"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// feedDepth is how many batches wait for a viewer's screen at most: a
// screen that is slower than its source (a viewer on a slow link) takes
// them in bursts of this size, and the rest stays in the hub's log.
const feedDepth = 16

// Feed is one viewer's reading of a hub: the fold it starts from, then
// batches on a channel of its own, filled as fast as the viewer's screen
// takes them, and the sources' status as it changes.
type Feed struct {
	// Start is the hub's fold where the batches start, for the screen to
	// take up before it folds them (nil when they start at the log's
	// start).
	Start *fold.ThreadsCheckpoint
	// Batches closes when every source has ended and the viewer has taken
	// all, or when the viewer's context ends (not when it fell behind).
	// Nothing comes before Begin.
	Batches <-chan model.Batch
	// Status carries the latest status only: a viewer that is behind
	// skips the words it was too late for.
	Status <-chan string
	// Behind is closed when the viewer fell so far behind that the log
	// no longer holds what it was to read next; Batches then stays open
	// and sends nothing more.
	Behind <-chan struct{}

	begin chan struct{}
}

// Begin lets the batches come, once the screen has taken up Start.
func (f *Feed) Begin() { close(f.begin) }

// Follow starts a viewer's feed where a viewer joining now starts (the
// hub's latest checkpoint), until ctx ends. A viewer that falls behind is
// never resynchronised by skipping: it reads on from where it is, in
// bursts of up to feedDepth batches, while the sources and the other
// viewers go on at their own pace, until it is a window behind: then
// Behind is closed and the feed ends.
func (h *Hub) Follow(ctx context.Context) *Feed {
	join := h.joinNow()
	batches := make(chan model.Batch, feedDepth)
	status := make(chan string, 1)
	behind := make(chan struct{})
	f := &Feed{Start: join.threads, Batches: batches, Status: status, Behind: behind, begin: make(chan struct{})}
	go func() {
		defer close(status)
		fellBehind := false
		defer func() {
			if !fellBehind {
				close(batches)
			}
		}()
		select {
		case <-f.begin:
		case <-ctx.Done():
			return
		}
		send := func(b model.Batch) bool {
			select {
			case batches <- b:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, g := range join.glances {
			if !send(g) {
				return
			}
		}
		pos, seen := join.at, 0
		for {
			v := h.since(pos, seen)
			if v.behind {
				fellBehind = true
				close(behind)
				return
			}
			if v.statusGen != seen {
				seen = v.statusGen
				latest(status, v.status)
			}
			for _, b := range v.batches {
				if !send(b) {
					return
				}
				pos++
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
	return f
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
