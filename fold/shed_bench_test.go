package fold_test

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The live view of an endless log: 2,000,000 events, shed every 50,000
// keeping 2,000 items and the content of 500 steps.
const (
	shedBenchEvents = 2_000_000
	shedBenchEvery  = 50_000
	shedBenchItems  = 2_000
	shedBenchSteps  = 500
)

// shedBenchMarks are where the live heap is read.
var shedBenchMarks = []int{200_000, 1_000_000, shedBenchEvents}

var shedBenchLog = sync.OnceValue(func() []byte { return loggen.Generate(shedBenchEvents, benchSeed) })

// liveHeap is the heap still reachable: after two collections, what is
// allocated.
func liveHeap() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// BenchmarkShedBounded measures what a live view of an endless log holds:
// loggen's log of 2,000,000 events, each line decoded and folded in
// batches of 512 as a tail hands them over, with Shed(2000, 500) every
// 50,000 events ("shed") or never ("none"). It reports the live heap the
// fold holds at 200k, 1M and 2M events (after a GC, less the heap before
// folding, which holds the log's bytes), the time per event, shedding
// included (the heap reads are not timed), and the longest Shed call. Run
// it once:
//
//	go test ./fold/ -run '^$' -bench ShedBounded -benchtime 1x
func BenchmarkShedBounded(b *testing.B) {
	log := shedBenchLog()
	for _, shed := range []bool{true, false} {
		name := "none"
		if shed {
			name = "shed"
		}
		b.Run(name, func(b *testing.B) {
			heap := make([]int64, len(shedBenchMarks))
			var f *fold.Fold
			events := 0
			var slowest time.Duration // the longest Shed call
			for b.Loop() {
				f = nil
				b.StopTimer()
				base := liveHeap()
				b.StartTimer()
				f = fold.New(fold.Options{})
				batch := make([]model.Record, 0, benchBatch)
				mark := 0
				events = 0
				rest := log
				for len(rest) > 0 {
					i := bytes.IndexByte(rest, '\n')
					if i < 0 {
						i = len(rest)
					}
					ln := rest[:i]
					rest = rest[min(i+1, len(rest)):]
					ev := agui.Decode(ln)
					at, _ := agui.Time(ev)
					events++
					batch = append(batch, model.Record{Seq: uint64(events), At: at, Proto: model.ProtoAGUI, Raw: ln, Event: ev})
					last := len(rest) == 0
					due := shed && events%shedBenchEvery == 0
					measure := mark < len(shedBenchMarks) && (events == shedBenchMarks[mark] || last)
					if len(batch) < benchBatch && !due && !measure && !last {
						continue
					}
					if _, err := f.Apply(batch...); err != nil {
						b.Fatalf("Apply: %v", err)
					}
					clear(batch)
					batch = batch[:0]
					if due {
						t0 := time.Now()
						f.Trim(shedding(shedBenchItems, shedBenchSteps))
						slowest = max(slowest, time.Since(t0))
					}
					if measure {
						b.StopTimer()
						heap[mark] = liveHeap() - base
						mark++
						b.StartTimer()
					}
				}
			}
			benchClean(b, f, events)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events*b.N), "ns/event")
			for i, h := range heap {
				b.ReportMetric(float64(h)/1e6, fmt.Sprintf("MB@%dk", shedBenchMarks[i]/1000))
			}
			if shed {
				b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms/Shed")
			}
			s := f.Shedded()
			b.Logf("%d events: live heap %.1f / %.1f / %.1f MB at 200k / 1M / 2M; holds %d items, %d steps (%d shed), %d messages; shed %d items, %d steps, %d messages",
				events, float64(heap[0])/1e6, float64(heap[1])/1e6, float64(heap[2])/1e6,
				len(f.Items()), len(f.Steps()), s.Steps, len(f.Messages()), s.Items, s.Steps, s.Messages)
		})
	}
}
