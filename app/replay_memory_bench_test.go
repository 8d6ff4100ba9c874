package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/procmem"
	"github.com/agentwatch/agentwatch/replay"
)

// replayChildEnv names the log TestReplayMemoryChild replays when it is set.
const replayChildEnv = "AGENTWATCH_REPLAY_CHILD"

// BenchmarkReplayMemory replays the 126 MB, 700,000-event loggen logs of
// one thread and of 100 threads, each in a process of its own, as
// `agentwatch replay` does without the screen: the garbage collector tuned for a replay, the file indexed while the
// timeline folds it, then seeks to 90 % and to the end. It reports the
// process's peak resident memory against the file (the budget: 1.5×), the
// heap the replay keeps (index, schedule, timeline, the player's fold),
// the time to index and fold the log and the CPU time the collector took
// (which a busy machine does not inflate as much as wall time), the two
// seeks, and the median and 99th percentile of 200 seeks anywhere after,
// in a row, as dragging the replay bar makes them.
//
//	go test ./app/ -run '^$' -bench ReplayMemory -benchtime 3x
func BenchmarkReplayMemory(b *testing.B) {
	for _, threads := range []int{1, 100} {
		b.Run(strconv.Itoa(threads)+"-threads", func(b *testing.B) {
			log := loggen.Generate(700_000, 1)
			if threads > 1 {
				log = loggen.GenerateThreads(700_000, threads, 1)
			}
			path := filepath.Join(b.TempDir(), "700k.jsonl")
			if err := os.WriteFile(path, log, 0o600); err != nil {
				b.Fatal(err)
			}
			benchReplayMemory(b, path)
		})
	}
}

// benchReplayMemory is BenchmarkReplayMemory of the log at path.
func benchReplayMemory(b *testing.B, path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := st.Size()
	var peak, live, build, gcCPU, seek90, seekEnd, seekMedian, seekP99 float64
	for b.Loop() {
		m := replayChild(b, path)
		gcCPU += m["gc-cpu-s"]
		peak = max(peak, m["VmHWM-bytes"])
		live = max(live, m["live-bytes"])
		build += m["build-s"]
		seek90 += m["seek90-ms"]
		seekEnd += m["seekEnd-ms"]
		seekMedian += m["seek-median-ms"]
		seekP99 += m["seek-p99-ms"]
	}
	n := float64(b.N)
	b.ReportMetric(peak/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(peak/float64(size), "peak-RSS/file")
	b.ReportMetric(live/(1<<20), "kept-MiB")
	b.ReportMetric(build/n, "index+fold-s")
	b.ReportMetric(gcCPU/n, "gc-cpu-s")
	b.ReportMetric(seek90/n, "seek90%-ms")
	b.ReportMetric(seekEnd/n, "seekEnd-ms")
	b.ReportMetric(seekMedian/n, "seek-median-ms")
	b.ReportMetric(seekP99/n, "seek-p99-ms")
}

// replayChild runs this test binary again, replaying only the log at path,
// and returns what it measured.
func replayChild(b *testing.B, path string) map[string]float64 {
	cmd := exec.Command(os.Args[0], "-test.run=^TestReplayMemoryChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), replayChildEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	m := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if f, err := strconv.ParseFloat(v, 64); ok && err == nil {
			m[k] = f
		}
	}
	if m["VmHWM-bytes"] == 0 {
		b.Fatalf("child reported no peak:\n%s", out)
	}
	return m
}

// TestReplayMemoryChild is the child process of BenchmarkReplayMemory; it
// does nothing unless the environment names a log. It replays the log as
// Replay sets a file up, seeks, and prints what it measured.
func TestReplayMemoryChild(t *testing.T) {
	path := os.Getenv(replayChildEnv)
	if path == "" {
		t.Skip("run by BenchmarkReplayMemory")
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tuneForReplay(st.Size())
	start := time.Now()
	log, ixr, done, err := openIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.file.Close()
	tl, err := newTimeline(log, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sched := replay.NewSchedule(log, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap})
	if !done {
		if err := (&indexing{log: log, ixr: ixr, sched: sched, tl: tl}).run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("build-s %f\n", time.Since(start).Seconds())
	p := replay.NewPlayer(log, tl, sched, replay.PlayerOptions{})
	for _, s := range []struct {
		name string
		pct  float64
	}{{"seek90-ms", 90}, {"seekEnd-ms", 100}} {
		t0 := time.Now()
		if _, err := p.SeekPercent(s.pct); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s %f\n", s.name, float64(time.Since(t0).Microseconds())/1000)
	}
	if !p.AtEnd() {
		t.Fatalf("at %d of %d after seeking to the end", p.Pos(), p.Len())
	}
	// Seeks a person makes after the index is done: anywhere, by the
	// replay bar or a key.
	rng := rand.New(rand.NewPCG(1, 2))
	var seeks []time.Duration
	for range 200 {
		t0 := time.Now()
		if _, err := p.SeekPercent(100 * rng.Float64()); err != nil {
			t.Fatal(err)
		}
		seeks = append(seeks, time.Since(t0))
	}
	slices.Sort(seeks)
	fmt.Printf("seek-median-ms %f\nseek-p99-ms %f\n", float64(seeks[100].Microseconds())/1000, float64(seeks[198].Microseconds())/1000)
	gcCPU := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(gcCPU)
	fmt.Printf("gc-cpu-s %f\ngc-cycles %d\n", gcCPU[0].Value.Float64(), gcCPU[1].Value.Uint64())
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	fmt.Printf("live-bytes %d\n", live[0].Value.Uint64())
	runtime.KeepAlive(p)
	peak, err := procmem.Field("self", "VmHWM")
	if err != nil {
		t.Skip("no peak to read: ", err)
	}
	fmt.Printf("VmHWM-bytes %d\n", peak)
}
