package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
)

// BenchmarkScreenManySteps opens the screen on a file of one thread, `agentwatch
// calls.jsonl` in a 160×48 pseudo-terminal, and appends runs of 50,000
// small tool calls to it until the thread has made 400,000 steps, each time
// waiting for the step bar to show the newest. It reports the resident
// memory once 100,000 steps are on screen and the most it reaches after, in
// MiB and as a ratio (growth): what the screen keeps is bounded by what it
// shows, so the ratio stays near 1 however many steps come.
//
//	go test ./cli/ -run '^$' -bench ScreenManySteps -benchtime 1x
func BenchmarkScreenManySteps(b *testing.B) {
	bin := agentwatchBinary(b)
	const total, chunk = 400_000, 50_000
	for b.Loop() {
		dir := b.TempDir()
		path := filepath.Join(dir, "calls.jsonl")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		appendCalls(b, f, 0, chunk)
		s := startScreen(b, bin, dir, b.TempDir(), 160, 48, "calls.jsonl")
		var at100k, most int64
		for n := chunk; ; n += chunk {
			bar := "step " + strconv.Itoa(n) + " of " + strconv.Itoa(n)
			s.waitFor(bar, 2*time.Minute, func(sc string) bool { return strings.Contains(sc, bar) })
			rss := rssOf(s.cmd.Process.Pid)
			switch {
			case n == 100_000:
				at100k = rss
			case n > 100_000:
				most = max(most, rss)
			}
			if n == total {
				break
			}
			appendCalls(b, f, n, chunk)
		}
		f.Close()
		s.quit()
		b.ReportMetric(float64(at100k)/(1<<20), "MiB-at-100k")
		b.ReportMetric(float64(most)/(1<<20), "MiB-max-after")
		b.ReportMetric(float64(most)/float64(at100k), "growth")
	}
}

// appendCalls appends a run of n finished tool calls, numbered from first,
// to thread t1 of f.
func appendCalls(b *testing.B, f *os.File, first, n int) {
	w := bufio.NewWriterSize(f, 1<<20)
	if err := hostile.ToolCalls(w, "r"+strconv.Itoa(first), first, n); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
}
