package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// loggedBatches are the records of a generated log of about n events, cut
// into batches of size records.
func loggedBatches(t testing.TB, n, size int) []model.Batch {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(loggen.Generate(n, 7)))
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Batch
	for len(recs) > 0 {
		k := min(size, len(recs))
		out = append(out, model.Batch{Source: "run.jsonl", Records: recs[:k:k]})
		recs = recs[k:]
	}
	return out
}

// batchReader hands out the records of a generated log of about n events
// in batches of size records, read as they are asked for, so that only
// the hub holds what it was handed.
type batchReader struct {
	r    *sources.Reader
	size int
}

func newBatchReader(n, size int) *batchReader {
	return &batchReader{r: sources.NewReader(bytes.NewReader(loggen.Generate(n, 7))), size: size}
}

// next is the next batch, with no records at the log's end.
func (br *batchReader) next(t testing.TB) model.Batch {
	b := model.Batch{Source: "run.jsonl"}
	for len(b.Records) < br.size {
		rec, err := br.r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b.Records = append(b.Records, rec)
	}
	return b
}

// exported is ts exported as JSON, to compare two folds.
func exported(t *testing.T, ts *fold.Threads) []byte {
	t.Helper()
	snap, err := ts.Export()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// keptRecords counts the records in the hub's log now.
func keptRecords(h *Hub) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, b := range h.batches {
		n += len(b.Records)
	}
	return n
}

// A viewer joining late takes up the hub's checkpoint and reads at most
// two windows of the log, and its fold is then the fold of the whole log,
// trimmed as a screen trims it.
func TestHubLateViewerTakesUpACheckpoint(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batches := loggedBatches(t, 6000, 37)
	h := NewHub(1, fold.Options{})
	h.limit = windowLimit{records: 500, bytes: 1 << 30}
	whole := fold.NewThreads(fold.Options{})
	for _, b := range batches {
		h.Publish(b)
		foldBatch(whole, b, h.keep)
	}
	h.End()

	late := h.Follow(ctx)
	if late.Start == nil {
		t.Fatal("a viewer joining after 6,000 records starts from the log's start")
	}
	late.Begin()
	ts := fold.ThreadsFromCheckpoint(late.Start, fold.Options{})
	read := 0
	for b := range late.Batches {
		foldBatch(ts, b, h.keep)
		read += len(b.Records)
	}
	if read > 2*h.limit.records+37 {
		t.Errorf("the late viewer read %d records; a window is %d", read, h.limit.records)
	}
	if !bytes.Equal(exported(t, ts), exported(t, whole)) {
		t.Error("the late viewer's fold differs from the fold of the whole log")
	}
}

// The hub's log holds a window, not every record, and the hub's memory
// is the same after ten times as many records.
func TestHubMemoryFlat(t *testing.T) {
	br := newBatchReader(50000, 50)
	h := NewHub(1, fold.Options{})
	h.limit = windowLimit{records: 1000, bytes: 1 << 30}
	// A screen's Keep is reached after some 80,000 records of this log; a
	// small one shows the same in a test's time.
	h.keep = fold.Keep{Items: 100, Content: 10, Skeletons: 50, Tombstones: fold.TombstonesRecent}
	published := 0
	heldAfter := func(records int) int64 {
		for published < records {
			b := br.next(t)
			if len(b.Records) == 0 {
				break
			}
			h.Publish(b)
			published += len(b.Records)
		}
		if n := keptRecords(h); n > 2*h.limit.records+50 {
			t.Errorf("after %d records the hub keeps %d", published, n)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	base := heldAfter(0)
	small := heldAfter(5000) - base
	large := heldAfter(50000) - base
	runtime.KeepAlive(h)
	runtime.KeepAlive(br)
	t.Logf("the hub holds %.1f MiB after 5,000 records, %.1f MiB after %d", float64(small)/(1<<20), float64(large)/(1<<20), published)
	// Flat: within half again, or 2 MiB of what the garbage collector
	// leaves about.
	if large > max(small*3/2, small+2<<20) {
		t.Errorf("the hub grew from %.1f to %.1f MiB with ten times the records", float64(small)/(1<<20), float64(large)/(1<<20))
	}
}

// A viewer that stops reading holds back nobody; once the log has moved a
// window past it, it learns it is behind, after reading on without a gap
// as far as the log still held.
func TestHubStalledViewerFallsBehind(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(1, fold.Options{})
	h.limit = windowLimit{records: 100, bytes: 1 << 30}
	stalled, reading := h.Follow(ctx), h.Follow(ctx)
	stalled.Begin()
	reading.Begin()
	const n = 2000
	for i := 0; i < n; i += 10 {
		for j := range 10 {
			h.Publish(batch("a", uint64(i+j+1)))
		}
		// Publish returned while stalled read nothing.
		if got := take(t, reading, 10); got[9].Records[0].Seq != uint64(i+10) {
			t.Fatalf("the reading viewer got record %d, want %d", got[9].Records[0].Seq, i+10)
		}
	}
	next := uint64(1)
	for {
		select {
		case b := <-stalled.Batches:
			if seq := b.Records[0].Seq; seq != next {
				t.Fatalf("the stalled viewer got record %d after %d", seq, next-1)
			}
			next++
		case <-stalled.Behind:
			if next > n {
				t.Fatal("the stalled viewer read everything and was still told it is behind")
			}
			return
		case <-time.After(waitLimit):
			t.Fatalf("the stalled viewer, after record %d, is never told it is behind", next-1)
		}
	}
}
