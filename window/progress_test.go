package window

import (
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// numbered are n records numbered from first, of no thread.
func numbered(first, n int) []model.Record {
	out := make([]model.Record, n)
	for i := range out {
		out[i].Seq = uint64(first + i)
		out[i].Proto, out[i].Event = model.ProtoAGUI, &model.Unreadable{Reason: "test"}
	}
	return out
}

// How far a view has folded a file is known exactly, or not at all: a
// batch cut in two says its end only once both halves are folded, and a
// source that started over is no longer known.
func TestFoldedUpTo(t *testing.T) {
	w := New(Options{})
	if _, _, ok := w.FoldedUpTo("f"); ok || w.FoldedAny() {
		t.Fatal("known before anything was folded")
	}
	w.Read(model.Batch{Source: "f", Records: numbered(1, 5), End: 500})
	if end, seq, ok := w.FoldedUpTo("f"); !ok || end != 500 || seq != 5 {
		t.Fatalf("after a whole batch: %d, %d, %v; want 500, 5, true", end, seq, ok)
	}
	// A batch cut in two: the head knows no end, the tail does.
	w.Read(model.Batch{Source: "f", Records: numbered(6, 4)})
	if _, _, ok := w.FoldedUpTo("f"); ok {
		t.Fatal("known after the first half of a cut batch")
	}
	w.Read(model.Batch{Source: "f", Records: numbered(10, 6), End: 1500})
	if end, seq, ok := w.FoldedUpTo("f"); !ok || end != 1500 || seq != 15 {
		t.Fatalf("after both halves: %d, %d, %v; want 1500, 15, true", end, seq, ok)
	}
	w.Read(model.Batch{Source: "f", Restart: true})
	w.Read(model.Batch{Source: "f", Records: numbered(16, 2), End: 200})
	if _, _, ok := w.FoldedUpTo("f"); ok {
		t.Fatal("known after the source started over")
	}
}

// A checkpoint is handed on once a file is read to its end and folded, not
// while it is being read, and not again before checkpointEvery passed and
// the file grew by an eighth; asked again later (a quiet tick), it hands on
// what a batch could not.
func TestCheckpointWhenReadToTheEnd(t *testing.T) {
	now := time.Unix(1e9, 0)
	type kept struct {
		end int64
		seq uint64
		n   int
	}
	var got []kept
	w := New(Options{Now: func() time.Time { return now },
		Checkpoint: func(source string, cp *fold.ThreadsCheckpoint, end int64, seq uint64) {
			records := 0
			for _, th := range fold.ThreadsFromCheckpoint(cp, fold.Options{}).List() {
				records += th.Records
			}
			got = append(got, kept{end, seq, records})
		}})
	ts := fold.NewThreads(fold.Options{})
	batch := func(first, n int, end, size int64) {
		b := model.Batch{Source: "f", Records: numbered(first, n), End: end, Read: end, Size: size}
		ts.Apply(b.Source, b.Records...)
		w.Read(b)
		w.Checkpoint(ts)
	}
	batch(1, 5, 500, 1000)
	if len(got) != 0 {
		t.Fatalf("kept while reading: %v", got)
	}
	batch(6, 5, 1000, 1000)
	if len(got) != 1 || got[0] != (kept{1000, 10, 10}) {
		t.Fatalf("read to the end: kept %v; want [{1000 10 10}]", got)
	}
	now = now.Add(checkpointEvery / 2)
	batch(11, 2, 1200, 1200)
	if len(got) != 1 {
		t.Fatalf("kept again after %v: %v", checkpointEvery/2, got)
	}
	now = now.Add(checkpointEvery)
	batch(13, 2, 1400, 1400)
	if len(got) != 2 || got[1] != (kept{1400, 14, 14}) {
		t.Fatalf("after %v: kept %v; want a second {1400 14 14}", checkpointEvery, got)
	}
	// Grown by less than an eighth of what was kept: not again, however
	// long since; by an eighth, again.
	now = now.Add(10 * checkpointEvery)
	batch(15, 2, 1400+1400/checkpointGrowth-1, 1400+1400/checkpointGrowth-1)
	if len(got) != 2 {
		t.Fatalf("kept again after growing by less than 1/%d: %v", checkpointGrowth, got)
	}
	batch(17, 2, 1400+1400/checkpointGrowth, 1400+1400/checkpointGrowth)
	if len(got) != 3 || got[2] != (kept{1400 + 1400/checkpointGrowth, 18, 18}) {
		t.Fatalf("grown by 1/%d: kept %v; want a third at %d", checkpointGrowth, got, 1400+1400/checkpointGrowth)
	}
	// A log that grew, then went quiet before checkpointEvery passed, is
	// kept when asked again once it has.
	batch(19, 2, 2000, 2000)
	if len(got) != 3 {
		t.Fatalf("kept again before %v: %v", checkpointEvery, got)
	}
	now = now.Add(checkpointEvery)
	w.Checkpoint(ts)
	if len(got) != 4 || got[3] != (kept{2000, 20, 20}) {
		t.Fatalf("quiet for %v: kept %v; want a fourth {2000 20 20}", checkpointEvery, got)
	}
}

// Reading says how much of the files being read is read, and nothing once
// they are read to their end; the first half of a batch cut in two never
// moves progress back.
func TestReading(t *testing.T) {
	w := New(Options{})
	if _, _, ok := w.Reading(); ok || w.IsFile("f") {
		t.Fatal("reading before anything came")
	}
	w.Read(model.Batch{Source: "f", Records: numbered(1, 5), Read: 400, Size: 1000})
	if read, size, ok := w.Reading(); !ok || read != 400 || size != 1000 || !w.IsFile("f") {
		t.Fatalf("reading %d of %d (%v)", read, size, ok)
	}
	w.Read(model.Batch{Source: "f", Records: numbered(6, 2), Size: 1000}) // a cut batch's head
	if read, _, _ := w.Reading(); read != 400 {
		t.Fatalf("progress went back to %d", read)
	}
	w.Read(model.Batch{Source: "f", Records: numbered(8, 2), Read: 1000, Size: 1000})
	if _, _, ok := w.Reading(); ok {
		t.Fatal("still reading a file read to its end")
	}
}
