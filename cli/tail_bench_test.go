package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/procmem"
)

// rssOf is a running process's resident memory in bytes (0 when unknown).
func rssOf(pid int) int64 {
	rss, _ := procmem.Field(strconv.Itoa(pid), "VmRSS")
	return rss
}

// BenchmarkTailPlainMemory follows a log with `agentwatch tail --plain` (the
// real process, output discarded) while 2,000,000 events are appended to
// it, and reports its resident memory after 200,000 events and the most
// it reaches after that, as a ratio: the budget is flat after the first
// 200,000 events, within 20 %.
//
//	go test ./cli/ -run '^$' -bench TailPlainMemory -benchtime 1x
func BenchmarkTailPlainMemory(b *testing.B) {
	bin := agentwatchBinary(b)
	const total, step = 2_000_000, 100_000
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "growing.jsonl")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(bin, "tail", "--plain", path)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		var at200k, most int64
		for n := step; n <= total; n += step {
			// Each chunk is a thread of its own, as an agent's next
			// conversation would be: ids never repeat.
			if _, err := f.Write(loggen.Generate(step, int64(n))); err != nil {
				b.Fatal(err)
			}
			// Let the tail catch up before measuring: it reads far faster
			// than this writes, and a second is a generous margin.
			time.Sleep(time.Second)
			rss := rssOf(cmd.Process.Pid)
			switch {
			case n == 200_000:
				at200k = rss
			case n > 200_000:
				most = max(most, rss)
			}
		}
		f.Close()
		cmd.Process.Kill()
		cmd.Wait()
		b.ReportMetric(float64(at200k)/(1<<20), "MiB-at-200k")
		b.ReportMetric(float64(most)/(1<<20), "MiB-max-after")
		b.ReportMetric(float64(most)/float64(at200k), "growth")
	}
}
