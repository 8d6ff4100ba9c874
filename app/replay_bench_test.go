package app

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// BenchmarkReplaySeek1M seeks to random positions of a 1,000,000-event log
// (181 MB of JSONL) as `agentwatch replay` does: records read and decoded
// from the indexed file, a checkpoint restored, fewer than
// replay.DefaultCheckpointEvery records folded forward. It reports the
// median, 99th percentile and worst seek, the time to index and fold the
// whole log, and the heap the replay keeps (index, checkpoints, fold).
//
//	go test ./app/ -run '^$' -bench ReplaySeek1M -benchtime 400x
func BenchmarkReplaySeek1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "1m.jsonl")
	if err := os.WriteFile(path, loggen.Generate(1_000_000, 7), 0o644); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, tl, _ := indexedReplay(b, path)
	build := time.Since(start)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if tl.Len() != 1_000_000+33 && tl.Len() < 1_000_000 {
		b.Fatalf("timeline has %d records", tl.Len())
	}
	rng := rand.New(rand.NewSource(1))
	var times []time.Duration
	for b.Loop() {
		k := rng.Intn(tl.Len() + 1)
		t0 := time.Now()
		if _, err := tl.At(k); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "worst-ms")
	b.ReportMetric(build.Seconds(), "index+fold-s")
	// HeapAlloc right after a collection is what is alive; HeapInuse
	// would count the free room in the spans too.
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "kept-MiB")
}
