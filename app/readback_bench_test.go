package app

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// BenchmarkReadBack opens the 126 MB, 700,000-event loggen log as the
// screen opens a file: tailed in 1 MiB steps and folded by a screen whose
// window keeps what the screen keeps (window.ScreenKeep) and reads back
// through the App's read indexes. Once the screen has folded the whole
// file it reads back, as a person who scrolls back at once would: first
// 2,000 shed items in the middle of the log (the first read), then 2,000
// near its end, a shed step in the middle (forgotten, read back by its
// number) and one near the end (its content shed). It reports each read
// (wall time), the slowest, the CPU time (user+sys) of the first and of
// the slowest later read, how long the screen took to fold the file, the
// CPU time of the whole open, and the share of the records that the
// index's build took from the screen (buildFeed) rather than decode.
//
// "ahead" is what the screen does: a file of readAheadFrom or more is
// indexed as soon as the screen starts reading it. "at-first-read" is how
// it was: the index made by the first read back.
//
//	go test ./app/ -run '^$' -bench ReadBack -benchtime 3x
func BenchmarkReadBack(b *testing.B) {
	path := filepath.Join(b.TempDir(), "700k.jsonl")
	if err := os.WriteFile(path, loggen.Generate(700_000, 1), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name  string
		ahead int64
	}{{"ahead", readAheadFrom}, {"at-first-read", math.MaxInt64}} {
		b.Run(mode.name, func(b *testing.B) {
			was := readAheadFrom
			readAheadFrom = mode.ahead
			defer func() { readAheadFrom = was }()
			var first, middle, end, stepMid, stepEnd, worst, firstCPU, laterCPU, screen, cpu time.Duration
			var fed float64
			for b.Loop() {
				r := openReadBackScreen(b, path)
				first += r.first
				middle += r.items[0]
				end += r.items[1]
				stepMid += r.steps[0]
				stepEnd += r.steps[1]
				worst = max(worst, r.first, r.items[0], r.items[1], r.steps[0], r.steps[1])
				firstCPU += r.firstCPU
				laterCPU = max(laterCPU, r.laterCPU)
				screen += r.screen
				cpu += r.cpu
				fed += r.fed
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(ms(first), "first-read-ms")
			b.ReportMetric(ms(middle), "items-middle-ms")
			b.ReportMetric(ms(end), "items-end-ms")
			b.ReportMetric(ms(stepMid), "step-middle-ms")
			b.ReportMetric(ms(stepEnd), "step-end-ms")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
			b.ReportMetric(ms(firstCPU), "first-read-cpu-ms")
			b.ReportMetric(float64(laterCPU.Microseconds())/1000, "worst-later-cpu-ms")
			b.ReportMetric(ms(screen)/1000, "screen-read-s")
			b.ReportMetric(ms(cpu)/1000, "cpu-s")
			b.ReportMetric(fed/n, "fed-share")
		})
	}
}

// readBackTimes are the times of one BenchmarkReadBack run: the first read
// (items in the middle), the same items and those near the end read
// again, the two steps, the CPU time of the first read and of the most
// costly later one, how long the screen took to fold the file, and the
// CPU time of it all.
type readBackTimes struct {
	first              time.Duration
	items, steps       [2]time.Duration
	firstCPU, laterCPU time.Duration
	screen, cpu        time.Duration
	// fed is the share of the records the index's build took from the
	// screen rather than decode from the file.
	fed float64
}

// openReadBackScreen is one run of BenchmarkReadBack.
func openReadBackScreen(b *testing.B, path string) readBackTimes {
	b.Helper()
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tail, events := sources.TailBatches(ctx, path, sources.TailOptions{Poll: 10 * time.Millisecond})
	go func() {
		for range events {
		}
	}()
	// The screen gets what the tail reads until it has read the file to
	// its end (a tail never ends by itself).
	ch := make(chan model.Batch, 4)
	go func() {
		defer close(ch)
		for bt := range tail {
			ch <- bt
			if bt.Size == st.Size() && bt.Read >= bt.Size {
				cancel()
				return
			}
		}
	}()
	opts := &Options{}
	app := New(opts)
	var reader window.Reader
	readers := app.fileReaders(func(source string) string { return fileOf(opts, source, false) })
	a := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), ch, tui.AppOptions{
		Window: window.Options{Reader: func(source string) window.Reader {
			reader = readers(source)
			return reader
		}}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	drive(a, a.Init())
	var t readBackTimes
	t.screen = time.Since(start)
	if reader == nil || a.Threads().Len() != 1 {
		b.Fatalf("the screen made no reader, or %d threads", a.Threads().Len())
	}
	th := a.Threads().List()[0]
	made, steps := th.Fold.ItemsMade(), th.Fold.StepCount()
	if th.Fold.Shedded().Items == 0 || th.Fold.StepBase() < steps/2 {
		b.Fatalf("the screen shed %d items and forgot %d of %d steps: nothing in the middle to read back", th.Fold.Shedded().Items, th.Fold.StepBase(), steps)
	}
	var cpuOfRead time.Duration
	items := func(from uint64) time.Duration {
		c0, t0 := cpuTime(), time.Now()
		defer func() { cpuOfRead = cpuTime() - c0 }()
		got, err := reader.Items(window.ItemsWanted{Source: path, Thread: th.ID, Step: -1, From: from, To: from + 2000, Max: 2000})
		if err != nil || len(got.Items) != 2000 {
			b.Fatalf("items %d–%d: %d, %v", from, from+2000, len(got.Items), err)
		}
		return time.Since(t0)
	}
	step := func(i int) time.Duration {
		c0, t0 := cpuTime(), time.Now()
		defer func() { cpuOfRead = cpuTime() - c0 }()
		s, err := reader.Step(th.ID, i, "")
		if err != nil || s.Index != i || s.Shed {
			b.Fatalf("step %d: %v", i, err)
		}
		return time.Since(t0)
	}
	t.first = items(made / 2)
	t.firstCPU = cpuOfRead
	for _, d := range []func() time.Duration{
		func() time.Duration { t.items[0] = items(made / 2); return cpuOfRead },
		func() time.Duration { t.items[1] = items(made - 6000); return cpuOfRead },
		func() time.Duration { t.steps[0] = step(steps / 2); return cpuOfRead },
		func() time.Duration { t.steps[1] = step(steps - 1000); return cpuOfRead }, // its content shed, its skeleton kept
	} {
		t.laterCPU = max(t.laterCPU, d())
	}
	t.cpu = cpuTime() - cpu0
	app.indexes.mu.Lock()
	for _, x := range app.indexes.kept {
		x.mu.Lock()
		if x.fed+x.decoded > 0 {
			t.fed = float64(x.fed) / float64(x.fed+x.decoded)
		}
		x.mu.Unlock()
	}
	app.indexes.mu.Unlock()
	return t
}

// cpuTime is the CPU time (user and system) the process took so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
