package app

import (
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// seqs are records numbered from to to-1.
func seqs(from, to uint64) []model.Record {
	out := make([]model.Record, 0, to-from)
	for s := from; s < to; s++ {
		out = append(out, model.Record{Seq: s})
	}
	return out
}

// The build takes from the screen's records the stretches they hold in
// order, whatever batches they came in; a stretch with a gap, one the
// screen began past (a view taken up), or any after the file started over
// is read from the file instead, and so is any once the build is stopped.
func TestBuildFeedTakesInOrder(t *testing.T) {
	stop := make(chan struct{})
	seqsOf := func(recs []model.Record) (from, to uint64) {
		if len(recs) == 0 {
			return 0, 0
		}
		return recs[0].Seq, recs[len(recs)-1].Seq + 1
	}
	want := func(got []model.Record, from, to uint64) {
		t.Helper()
		if f, e := seqsOf(got); f != from || e != to || len(got) != int(to-from) {
			t.Fatalf("took records %d to %d (%d), want %d to %d", f, e, len(got), from, to)
		}
	}

	f := newBuildFeed()
	f.give(model.Batch{Records: seqs(1, 4)})
	f.give(model.Batch{Records: seqs(4, 11)})
	want(f.take(0, 5, stop), 1, 6)
	want(f.take(5, 10, stop), 6, 11)

	// The screen's batches from 21 on: 11 to 20 are read from the file.
	f.give(model.Batch{Records: seqs(21, 31)})
	if got := f.take(10, 20, stop); got != nil {
		t.Fatalf("a stretch the screen did not give was taken: %d records", len(got))
	}
	want(f.take(20, 30, stop), 21, 31)

	// A view taken up gives records from where it took up.
	up := newBuildFeed()
	up.give(model.Batch{Records: seqs(5001, 5101)})
	if up.take(0, 4096, stop) != nil {
		t.Fatal("records before the view took up were taken")
	}
	want(up.take(5000, 5100, stop), 5001, 5101)

	// Once the file started over, nothing is taken.
	f.give(model.Batch{Restart: true, Records: seqs(31, 41)})
	if f.take(30, 40, stop) != nil {
		t.Fatal("records after the file started over were taken")
	}

	// A stopped build waits for nothing.
	close(stop)
	if newBuildFeed().take(0, 10, stop) != nil {
		t.Fatal("a stopped build took records")
	}
}

// A screen that gives nothing for feedWait is not waited for again until
// it gives more: then its records are taken again.
func TestBuildFeedQuietScreen(t *testing.T) {
	stop := make(chan struct{})
	f := newBuildFeed()
	if f.take(0, 10, stop) != nil || !f.quiet {
		t.Fatal("records were taken from a screen that gave none")
	}
	if f.take(10, 20, stop) != nil {
		t.Fatal("records were taken from a quiet screen")
	}
	f.give(model.Batch{Records: seqs(21, 41)})
	if got := f.take(20, 40, stop); len(got) != 20 || got[0].Seq != 21 || f.quiet {
		t.Fatalf("after the quiet screen gave more, took %d records", len(got))
	}
}
