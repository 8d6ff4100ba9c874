package acpconn

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// BenchmarkLoad20000 loads (session/load) a stored session of 20,000
// updates from the fixture agent over a real pipe, folding every line as
// it arrives, and reports the time from the request to the last update
// folded, the fold's time alone, and the heap the folded session keeps.
//
//	go test ./sources/acpconn/ -run '^$' -bench Load20000 -benchtime 5x
func BenchmarkLoad20000(b *testing.B) {
	store := b.TempDir()
	dir := b.TempDir()
	env := []string{"ACPTEST_STORE=" + store, "ACPTEST_LOAD_SPLIT=before"}
	// Record the session once.
	first := startBench(b, dir, env, true)
	if stop, err := first.conn.Prompt(context.Background(), "burst 20000"); err != nil || stop != "end_turn" {
		b.Fatalf("burst: %q %v", stop, err)
	}
	id := first.conn.Session()
	first.conn.Close()
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		c := startBench(b, dir, env, false)
		f := fold.New(fold.Options{})
		var foldTime time.Duration
		done := make(chan int)
		go func() {
			n := 0
			for batch := range c.conn.Records() {
				t0 := time.Now()
				f.Apply(batch...)
				foldTime += time.Since(t0)
				n += len(batch)
			}
			done <- n
		}()
		start := time.Now()
		if err := c.conn.LoadSession(context.Background(), id); err != nil {
			b.Fatal(err)
		}
		loaded := time.Since(start)
		c.conn.Close()
		n := <-done
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if len(f.Steps()) != 1 || n < 20000 {
			b.Fatalf("loaded %d records, %d steps", n, len(f.Steps()))
		}
		b.ReportMetric(float64(loaded.Milliseconds()), "load-ms")
		b.ReportMetric(float64(foldTime.Milliseconds()), "fold-ms")
		b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/(1<<20), "kept-MiB")
		runtime.KeepAlive(f)
	}
}

type benchSession struct{ conn *Conn }

func startBench(b *testing.B, dir string, env []string, newSession bool) benchSession {
	b.Helper()
	bin := acptest.Build(b)
	cmd := append([]string{"env"}, env...)
	c, err := Start(Options{Command: append(cmd, bin), Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		b.Fatal(err)
	}
	if newSession {
		if _, err := c.NewSession(ctx); err != nil {
			b.Fatal(err)
		}
	}
	return benchSession{conn: c}
}
