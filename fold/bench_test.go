package fold_test

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The budget (README, "Speed and memory"): decode + fold ≥ 1,000,000 events/s on a
// realistic log, on the 2-core machine. The log is loggen's, 100,000
// events; records go to the fold in batches of benchBatch, as a source
// hands them over.
const (
	benchEvents = 100_000
	benchSeed   = 1
	benchBatch  = 512
)

var benchData = sync.OnceValues(func() ([]byte, [][]byte) {
	log := loggen.Generate(benchEvents, benchSeed)
	return log, bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
})

// benchFold folds recs into a new fold in batches of benchBatch.
func benchFold(tb testing.TB, recs []model.Record) *fold.Fold {
	f := fold.New(fold.Options{})
	for len(recs) > 0 {
		k := min(len(recs), benchBatch)
		if _, err := f.Apply(recs[:k]...); err != nil {
			tb.Fatalf("Apply: %v", err)
		}
		recs = recs[k:]
	}
	return f
}

// benchClean fails the benchmark when the fold reported anything: a
// throughput figure over diagnostics would measure the error path.
func benchClean(tb testing.TB, f *fold.Fold, events int) {
	tb.Helper()
	if n := len(f.Diagnostics()); n > 0 {
		tb.Fatalf("%d diagnostics, first %+v", n, f.Diagnostics()[0])
	}
	if got := f.LastSeq(); got != uint64(events) {
		tb.Fatalf("folded %d records, want %d", got, events)
	}
}

func reportRate(b *testing.B, events int) {
	b.ReportMetric(float64(events*b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDecodeFold is the budgeted path: each line decoded with
// agui.Decode into a Record and folded, in batches of 512.
func BenchmarkDecodeFold(b *testing.B) {
	log, lines := benchData()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	batch := make([]model.Record, 0, benchBatch)
	var f *fold.Fold
	for b.Loop() {
		f = fold.New(fold.Options{})
		for i, ln := range lines {
			ev := agui.Decode(ln)
			at, _ := agui.Time(ev)
			batch = append(batch, model.Record{Seq: uint64(i + 1), At: at, Proto: model.ProtoAGUI, Raw: ln, Event: ev})
			if len(batch) == benchBatch || i == len(lines)-1 {
				if _, err := f.Apply(batch...); err != nil {
					b.Fatalf("Apply: %v", err)
				}
				batch = batch[:0]
			}
		}
	}
	reportRate(b, len(lines))
	benchClean(b, f, len(lines))
}

// BenchmarkFoldOnly folds records decoded beforehand.
func BenchmarkFoldOnly(b *testing.B) {
	log, _ := benchData()
	recs := genRecords(log)
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	var f *fold.Fold
	for b.Loop() {
		f = benchFold(b, recs)
	}
	reportRate(b, len(recs))
	benchClean(b, f, len(recs))
}

// BenchmarkDecodeOnly decodes every line and keeps nothing.
func BenchmarkDecodeOnly(b *testing.B) {
	log, lines := benchData()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	bad := 0
	for b.Loop() {
		for _, ln := range lines {
			switch agui.Decode(ln).(type) {
			case *agui.Malformed, *agui.Unknown, *model.Unreadable:
				bad++
			}
		}
	}
	reportRate(b, len(lines))
	if bad > 0 {
		b.Fatalf("%d events did not decode cleanly", bad)
	}
}

// BenchmarkRetained measures what the fold keeps once the records are gone:
// the live heap after folding the 100,000-event log (records dropped, two
// GCs) less the live heap before the records were built. Every event of the
// log is completed (all runs finish), so this is memory per completed event.
// It reports B/event and the ratio to the log's size (the budget for
// the resident size of a 100 MB log is 1.5× the file); its time is not a
// figure.
func BenchmarkRetained(b *testing.B) {
	log, _ := benchData()
	var ms runtime.MemStats
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	var retained, decoded, events int64
	for b.Loop() {
		base := heap()
		recs := genRecords(log)
		events = int64(len(recs))
		withRecords := heap()
		f := benchFold(b, recs)
		recs = nil
		after := heap()
		runtime.KeepAlive(f)
		decoded += withRecords - base
		retained += after - base
		benchClean(b, f, int(events))
	}
	perEvent := float64(retained) / float64(int64(b.N)*events)
	b.ReportMetric(perEvent, "B/event")
	b.ReportMetric(perEvent*float64(events)/float64(len(log)), "retained/log")
	b.Logf("fold retains %.0f B per completed event (%.1f MB for %d events, log %.1f MB, ratio %.2f); decoded records held %.0f B/event",
		perEvent, perEvent*float64(events)/1e6, events, float64(len(log))/1e6, perEvent*float64(events)/float64(len(log)),
		float64(decoded)/float64(int64(b.N)*events))
}

// BenchmarkExport exports the folded state of the 100,000-event log as a
// checkpoint (for information: no budget names it).
func BenchmarkExport(b *testing.B) {
	log, _ := benchData()
	f := benchFold(b, genRecords(log))
	b.ReportAllocs()
	var size int
	for b.Loop() {
		snap, err := f.Export()
		if err != nil {
			b.Fatalf("Export: %v", err)
		}
		size = len(snap.State)
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(size), "snapshot-B")
}
