package serve

// What a server holds while it serves a live log: its hub, however long
// the log grows, and each viewer of it.
//
//	go test ./serve/ -run '^$' -bench 'HubMemory|ViewersMemory' -benchtime 1x

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// heapInUse is the heap the process holds after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// mib is n bytes in MiB.
func mib(n int64) float64 { return float64(n) / (1 << 20) }

// The hub of a log of 70,000 and of 700,000 events (12.6 and 126 MB):
// what it holds once it has folded the log, against what the whole log
// held as records costs (what the hub kept before it kept a window).
func BenchmarkHubMemory(b *testing.B) {
	for _, n := range []int{70000, 700000} {
		for _, how := range []string{"hub", "every-record"} {
			b.Run(fmt.Sprintf("events=%d/%s", n, how), func(b *testing.B) {
				for range b.N {
					br := newBatchReader(n, 512)
					h := NewHub(1, fold.Options{})
					var all []model.Batch
					base := heapInUse()
					start := time.Now()
					for {
						batch := br.next(b)
						if len(batch.Records) == 0 {
							break
						}
						if how == "hub" {
							h.Publish(batch)
						} else {
							all = append(all, batch)
						}
					}
					took := time.Since(start)
					held := heapInUse() - base
					runtime.KeepAlive(h)
					runtime.KeepAlive(all)
					runtime.KeepAlive(br)
					b.ReportMetric(mib(held), "held-MiB")
					b.ReportMetric(took.Seconds(), "s")
				}
			})
		}
	}
}

// Viewers of a live log of 100,000 events (17.9 MB) that the hub has read
// whole: what the process holds for each viewer that joins (its screen,
// and in this process its SSH client and terminal emulator too), and the
// most the heap held beyond the hub while eight joined one after another.
func BenchmarkViewersMemory(b *testing.B) {
	log := loggen.Generate(100000, 7)
	path := filepath.Join(b.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, log, 0o600); err != nil {
		b.Fatal(err)
	}
	steps := stepsOf(b, log)
	log = nil
	for range b.N {
		ctx, cancel := context.WithCancel(context.Background())
		opts := &app.Options{Layout: "auto", Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		show, err := OpenShow(ctx, app.New(opts), []string{path}, ShowOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ts := startShow(b, show, Config{MaxSessions: 64}, nil)
		waitHubSteps(b, show.(*liveShow).hub, steps)
		base := heapInUse()
		stop := make(chan struct{})
		peak := heapPeak(stop)
		var viewers []*testViewer
		for _, n := range []int{1, 8} {
			for len(viewers) < n {
				v := ts.view(b, ts.allowed, 160, 48)
				v.waitFor(stepOf(steps, steps))
				viewers = append(viewers, v)
			}
			b.ReportMetric(mib(heapInUse()-base)/float64(n), fmt.Sprintf("MiB/viewer-of-%d", n))
		}
		close(stop)
		b.ReportMetric(mib(int64(<-peak)-base), "peak-MiB-of-8")
		runtime.KeepAlive(viewers)
		ts.Close()
		cancel()
	}
}

// stepsOf is how many steps the one thread of log has.
func stepsOf(b *testing.B, log []byte) int {
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		b.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("log", recs...)
	if ts.Len() != 1 {
		b.Fatalf("the log has %d threads, want 1", ts.Len())
	}
	return ts.List()[0].Fold.StepCount()
}

// waitHubSteps waits until the hub's one thread has steps steps.
func waitHubSteps(b *testing.B, h *Hub, steps int) {
	for deadline := time.Now().Add(2 * waitLimit); ; time.Sleep(50 * time.Millisecond) {
		h.folding.Lock()
		got := 0
		if list := h.threads.List(); len(list) > 0 {
			got = list[0].Fold.StepCount()
		}
		h.folding.Unlock()
		if got == steps {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("the hub has folded %d steps of %d", got, steps)
		}
	}
}

// A viewer who connects as the server starts reading a log of 700,000
// events (126 MB): how long until the whole log is on its screen. The
// viewer reads as the hub does and is not left a window behind.
//
//	go test ./serve/ -run '^$' -bench ViewerFromTheStart -benchtime 1x
func BenchmarkViewerFromTheStart(b *testing.B) {
	log := loggen.Generate(700000, 7)
	path := filepath.Join(b.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, log, 0o600); err != nil {
		b.Fatal(err)
	}
	steps := stepsOf(b, log)
	log = nil
	for range b.N {
		ts := startServer(b, []string{path}, ShowOptions{}, Config{})
		start := time.Now()
		v := ts.view(b, ts.allowed, 160, 48)
		for !strings.Contains(v.screen(), stepOf(steps, steps)) {
			select {
			case <-v.ended:
				b.Fatalf("the viewer's session ended: %s", v.stderr.String())
			case <-time.After(50 * time.Millisecond):
			}
			if time.Since(start) > 4*waitLimit {
				b.Fatalf("the viewer never showed the log's last step; it shows:\n%s", v.screen())
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "s-to-the-end")
		ts.Close()
	}
}
