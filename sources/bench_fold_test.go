package sources_test

import (
	"bytes"
	"context"
	"io"
	"sync"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// The whole path a saved log takes (the budget: decode + fold ≥ 1,000,000
// events/s): bytes → sources.Reader (format detection, framing, decoding) →
// fold, in batches of 512 records, over loggen's realistic 100,000-event log.
const (
	benchEvents = 100_000
	benchSeed   = 1
	benchBatch  = 512
)

var benchLogs = sync.OnceValues(func() ([]byte, []byte) {
	jsonl := loggen.Generate(benchEvents, benchSeed)
	return jsonl, loggen.ToArray(jsonl)
})

// benchOneLine is the array of benchLogs on one line, as a program that
// writes its events' array at once leaves it: `[{…},{…},…]`, no newline.
var benchOneLine = sync.OnceValue(func() []byte {
	_, array := benchLogs()
	return bytes.ReplaceAll(array, []byte{'\n'}, nil)
})

// readFold reads log to its end and folds every record; it returns the
// fold and the number of records.
func readFold(tb testing.TB, log []byte, batch []model.Record) (*fold.Fold, int) {
	f := fold.New(fold.Options{})
	r := sources.NewReader(bytes.NewReader(log))
	n := 0
	for {
		rec, err := r.Next()
		if err != nil && err != io.EOF {
			tb.Fatalf("Next: %v", err)
		}
		if err == nil {
			batch = append(batch, rec)
			n++
		}
		if len(batch) == cap(batch) || (err == io.EOF && len(batch) > 0) {
			if _, err := f.Apply(batch...); err != nil {
				tb.Fatalf("Apply: %v", err)
			}
			clear(batch) // drop the records, as a source's pump would
			batch = batch[:0]
		}
		if err == io.EOF {
			return f, n
		}
	}
}

func BenchmarkReadDecodeFold(b *testing.B) {
	jsonl, array := benchLogs()
	for _, form := range []struct {
		name string
		log  []byte
	}{{"jsonl", jsonl}, {"array", array}, {"one-line-array", benchOneLine()}} {
		b.Run(form.name, func(b *testing.B) {
			b.SetBytes(int64(len(form.log)))
			b.ReportAllocs()
			batch := make([]model.Record, 0, benchBatch)
			var f *fold.Fold
			n := 0
			for b.Loop() {
				f, n = readFold(b, form.log, batch)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
			if d := f.Diagnostics(); len(d) > 0 {
				b.Fatalf("%d diagnostics, first %+v", len(d), d[0])
			}
			if want := bytes.Count(jsonl, []byte{'\n'}); n != want {
				b.Fatalf("read %d records, want %d", n, want)
			}
		})
	}
}

// BenchmarkReadDecodeFoldPipelined is the same path with sources.Batches:
// splitting and decoding run on their own goroutines while the benchmark
// goroutine folds, as a viewer does.
func BenchmarkReadDecodeFoldPipelined(b *testing.B) {
	jsonl, array := benchLogs()
	for _, form := range []struct {
		name string
		log  []byte
	}{{"jsonl", jsonl}, {"array", array}, {"one-line-array", benchOneLine()}} {
		b.Run(form.name, func(b *testing.B) {
			b.SetBytes(int64(len(form.log)))
			b.ReportAllocs()
			var f *fold.Fold
			n := 0
			for b.Loop() {
				f, n = fold.New(fold.Options{}), 0
				ch, wait := sources.Batches(context.Background(), sources.NewReader(bytes.NewReader(form.log)), benchBatch)
				for batch := range ch {
					n += len(batch)
					if _, err := f.Apply(batch...); err != nil {
						b.Fatalf("Apply: %v", err)
					}
				}
				if err := wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
			if d := f.Diagnostics(); len(d) > 0 {
				b.Fatalf("%d diagnostics, first %+v", len(d), d[0])
			}
			if want := bytes.Count(jsonl, []byte{'\n'}); n != want {
				b.Fatalf("read %d records, want %d", n, want)
			}
		})
	}
}
