package serve

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// batch is a batch of one record with sequence number seq: an event of
// no thread's, which a fold notes and lets be.
func batch(source string, seq uint64) model.Batch {
	raw := []byte(`{"type":"CUSTOM","name":"probe","value":1}`)
	return model.Batch{Source: source, Records: []model.Record{{Seq: seq, Raw: raw, Event: agui.Decode(raw)}}}
}

// take reads n batches from f, failing the test if they do not come.
func take(t *testing.T, f *Feed, n int) []model.Batch {
	t.Helper()
	var got []model.Batch
	for len(got) < n {
		select {
		case b, ok := <-f.Batches:
			if !ok {
				t.Fatalf("the feed closed after %d batches, want %d", len(got), n)
			}
			got = append(got, b)
		case <-time.After(waitLimit):
			t.Fatalf("only %d batches of %d came", len(got), n)
		}
	}
	return got
}

// Every viewer reads the whole log in order, however late it joins, while
// the log is shorter than a window (past one, a late viewer takes up a
// checkpoint: TestHubLateViewerTakesUpACheckpoint).
func TestHubEveryViewerReadsAll(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(1, fold.Options{})
	early := h.Follow(ctx)
	early.Begin()
	for i := range 10 {
		h.Publish(batch("a", uint64(i+1)))
	}
	late := h.Follow(ctx)
	late.Begin()
	for i := 10; i < 20; i++ {
		h.Publish(batch("a", uint64(i+1)))
	}
	h.End()
	for name, f := range map[string]*Feed{"early": early, "late": late} {
		got := take(t, f, 20)
		for i, b := range got {
			if b.Records[0].Seq != uint64(i+1) {
				t.Fatalf("%s viewer: batch %d has record %d", name, i, b.Records[0].Seq)
			}
		}
		if _, ok := <-f.Batches; ok {
			t.Errorf("%s viewer: the feed goes on after the sources ended", name)
		}
	}
}

// A viewer that reads nothing holds back neither the source nor the
// other viewers: Publish never waits for a reader.
func TestHubStalledViewerStallsNobody(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(1, fold.Options{})
	stalled := h.Follow(ctx)
	reading := h.Follow(ctx)
	stalled.Begin()
	reading.Begin()
	const n = 10 * feedDepth
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			h.Publish(batch("a", uint64(i+1)))
		}
	}()
	got := take(t, reading, n)
	<-done // Publish returned n times while stalled read nothing
	if got[n-1].Records[0].Seq != n {
		t.Fatalf("the reading viewer's last batch is record %d", got[n-1].Records[0].Seq)
	}
	// The stalled viewer, less than a window behind, still gets everything,
	// from where it was.
	got = take(t, stalled, n)
	if got[0].Records[0].Seq != 1 || got[n-1].Records[0].Seq != n {
		t.Fatalf("the stalled viewer read records %d…%d", got[0].Records[0].Seq, got[n-1].Records[0].Seq)
	}
}

// A viewer whose session ended stops being fed.
func TestHubFeedEndsWithItsViewer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	h := NewHub(1, fold.Options{})
	f := h.Follow(ctx)
	f.Begin()
	h.Publish(batch("a", 1))
	cancel()
	for range f.Batches {
	}
	for range f.Status {
	}
}

// The status a viewer gets is the sources' latest words; with several
// sources their different words are joined.
func TestHubStatus(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(2, fold.Options{})
	h.SetStatus("a", "waiting for data")
	h.SetStatus("a", "● LIVE")
	h.SetStatus("b", "● LIVE")
	f := h.Follow(ctx)
	f.Begin()
	if got := <-f.Status; got != "● LIVE" {
		t.Errorf("status %q, want ● LIVE", got)
	}
	h.SetStatus("b", "file truncated, restarted")
	if got := <-f.Status; got != "● LIVE · file truncated, restarted" {
		t.Errorf("status %q", got)
	}
}

// The log ends only when every source has ended.
func TestHubEndsWithItsLastSource(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(2, fold.Options{})
	a, b := make(chan model.Batch), make(chan model.Batch)
	go h.Run("a", a, nil)
	go h.Run("b", b, nil)
	f := h.Follow(ctx)
	f.Begin()
	a <- batch("a", 1)
	close(a)
	b <- batch("b", 1)
	got := take(t, f, 2)
	// Each source's goroutine hands its batch on in its own time: the two
	// may come in either order.
	sources := []string{got[0].Source, got[1].Source}
	slices.Sort(sources)
	if sources[0] != "a" || sources[1] != "b" {
		t.Errorf("sources %v; want a batch of each", sources)
	}
	close(b)
	if _, ok := <-f.Batches; ok {
		t.Error("the feed goes on after both sources ended")
	}
}
