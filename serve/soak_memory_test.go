package serve

// This file holds the soak's memory samples: the live heap, after a
// collection, every soakSample.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/procmem"
)

const (
	// soakSample is how often the heap is sampled, and when first after
	// the sample before the load: the first seconds fill what is bounded
	// (each screen's window, the channels' buffers, the connections), so
	// flat is from then on.
	soakSample = 10 * time.Second
	// soakGrowth bounds what the load holds at the end as a multiple of
	// what it held soakSample in (about 25 MB, two thirds of it the
	// screens, when the hub kept every record). A server that keeps what it no
	// longer needs grows with the log: a hub keeping every record holds
	// about half a kilobyte an event, 25 MB more by the end, which
	// doubles it. What keeps to its bounds still moves: each screen's
	// fold saws as it trims, a run's messages stay while the run is open
	// (15 s of this log), and the OTLP translator remembers the spans it
	// placed up to its own bounds, far above a minute of this load (a
	// few MB by then); a quarter allows for that.
	soakGrowth = 1.25
	// soakMean is how many samples each mean of check takes: the first
	// and the second half of the minute after the first soakSample.
	soakMean = 3
)

// heapSample is the process's live heap and resident set at a moment of
// the soak.
type heapSample struct {
	at        time.Duration
	live, rss uint64
}

// heapSampler samples the heap every period until stopped.
type heapSampler struct {
	t     *testing.T
	start time.Time
	stopc chan struct{}
	out   chan heapSamples
	once  sync.Once
}

// heapSamples are a soak's samples, in order.
type heapSamples []heapSample

// sampleHeap takes a sample now, before the load, and then one every
// period from when it returns, when the load starts. The sampling stops
// when the test ends, if not before.
func sampleHeap(t *testing.T, period time.Duration) *heapSampler {
	s := &heapSampler{t: t, start: time.Now(), stopc: make(chan struct{}), out: make(chan heapSamples, 1)}
	t.Cleanup(func() { s.stop() })
	first := s.take()
	s.start = time.Now()
	go func() {
		got := heapSamples{first}
		defer func() { s.out <- got }()
		for k := 1; ; k++ {
			select {
			case <-s.stopc:
				return
			case <-time.After(time.Until(s.start.Add(time.Duration(k) * period))):
			}
			got = append(got, s.take())
		}
	}()
	return s
}

// stop ends the sampling and returns the samples taken, and one taken
// now; it returns nothing when called again.
func (s *heapSampler) stop() heapSamples {
	var got heapSamples
	s.once.Do(func() {
		close(s.stopc)
		got = append(<-s.out, s.take())
	})
	return got
}

// take collects the garbage, reads the live heap and the resident set,
// and logs them.
func (s *heapSampler) take() heapSample {
	runtime.GC()
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	h := heapSample{at: time.Since(s.start), live: m[0].Value.Uint64()}
	if rss, err := procmem.Field("self", "VmRSS"); err == nil {
		h.rss = uint64(rss)
	}
	if dir := os.Getenv("AGENTWATCH_SOAK_PROFILES"); dir != "" {
		s.profile(filepath.Join(dir, fmt.Sprintf("heap-%02ds.pprof", int(h.at.Seconds()))))
	}
	s.t.Logf("heap at %s: live %.1f MB, resident %.1f MB", h.at.Round(100*time.Millisecond), mb(h.live), mb(h.rss))
	return h
}

// profile writes a heap profile to path, for a person to see what grew
// (go tool pprof -diff_base).
func (s *heapSampler) profile(path string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Errorf("heap profile: %v", err)
		return
	}
	f, err := os.Create(path)
	if err != nil {
		s.t.Errorf("heap profile: %v", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		s.t.Errorf("heap profile %s: %v", path, err)
	}
}

// check fails the test unless what the load added to the live heap late
// in the soak is within soakGrowth of what it had added early: the mean
// of the last soakMean samples against the mean of the soakMean after
// the first, soakSample in. One sample moves by a few MB with what is in
// flight at its moment (an OTLP request, a frame), a fifth of what the
// load holds: a leak shows as a trend over the minute, which the means
// keep and a single sample can fake. The first sample, before the load,
// is what the clients and an idle server hold (the viewers' emulators
// alone are about 80 MB), which the load does not change: a ratio of
// whole heaps would hide in it what the load leaves behind.
func (hs heapSamples) check(t *testing.T) {
	t.Helper()
	if len(hs) < 1+2*soakMean {
		t.Errorf("%d heap samples; the soak needs one before the load and %d after it", len(hs), 2*soakMean)
		return
	}
	idle := hs[0]
	added := func(hs []heapSample) float64 {
		sum := 0.0
		for _, h := range hs {
			sum += float64(h.live) - float64(idle.live)
		}
		return sum / float64(len(hs))
	}
	early, late := hs[1:1+soakMean], hs[len(hs)-soakMean:]
	span := func(hs []heapSample) string {
		return fmt.Sprintf("%s–%s", hs[0].at.Round(time.Second), hs[len(hs)-1].at.Round(time.Second))
	}
	a, b := added(early), added(late)
	t.Logf("the load added %.1f MB to the live heap at %s and %.1f MB at %s, on average (%.2f×; at most %.2f× passes)",
		a/(1<<20), span(early), b/(1<<20), span(late), b/a, soakGrowth)
	if b > soakGrowth*a {
		t.Errorf("what the load holds grew from %.1f MB at %s to %.1f MB at %s, more than %.2f×: memory is not flat",
			a/(1<<20), span(early), b/(1<<20), span(late), soakGrowth)
	}
}

// mb is n bytes in megabytes.
func mb(n uint64) float64 { return float64(n) / (1 << 20) }
