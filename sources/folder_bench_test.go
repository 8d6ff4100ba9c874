package sources

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkFollowFolder follows a folder of 1,000 logs of 20 events each and
// reports the time until every record has arrived, and the heap a followed
// idle file costs (measured after a GC, with every tail started).
//
//	go test ./sources/ -run '^$' -bench FollowFolder -benchtime 3x
func BenchmarkFollowFolder(b *testing.B) {
	const files, perFile = 1000, 20
	dir := b.TempDir()
	s, _ := lines(0, perFile)
	for i := range files {
		path := filepath.Join(dir, fmt.Sprintf("thread-%04d.jsonl", i))
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var sumStart time.Duration
	var sumHeap float64
	runs := 0
	for b.Loop() {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		out, events := FollowFolder(ctx, dir, FolderOptions{})
		go func() {
			for range events {
			}
		}()
		got := 0
		timeout := time.After(60 * time.Second)
		for got < files*perFile {
			select {
			case batch := <-out:
				got += len(batch.Records)
			case <-timeout:
				b.Fatalf("%d of %d records in 60 s", got, files*perFile)
			}
		}
		took := time.Since(start)
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := float64(after.HeapInuse+after.StackInuse) - float64(before.HeapInuse+before.StackInuse)
		cancel()
		for range out {
		}
		sumStart += took
		sumHeap += heap
		runs++
	}
	b.ReportMetric(float64(sumStart.Milliseconds())/float64(runs), "ms-to-all-records")
	b.ReportMetric(sumHeap/float64(runs)/files/1024, "KiB/file")
}
