package cli

import (
	"bytes"
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
// real process, its lines written to a file) while 600,000 events are
// appended to it in bursts of 20,000, and reports its resident memory once
// it has caught up with the first 200,000 and with all 600,000 events, the
// ratio of the two (growth), the most it held once caught up after 200,000,
// and its peak while busy. The budget is flat within 20 %: what --plain holds
// is bounded by what it prints, not by how long the source ran.
//
// The log is one thread that grows (one-thread), or a new thread every
// 100,000 events, as an agent's next conversations would be, ids never
// repeating (thread-per-chunk).
//
//	go test ./cli/ -run '^$' -bench TailPlainMemory -benchtime 1x
func BenchmarkTailPlainMemory(b *testing.B) {
	const total = 600_000
	b.Run("one-thread", func(b *testing.B) {
		benchTailPlainMemory(b, loggen.Generate(total, 1))
	})
	b.Run("thread-per-chunk", func(b *testing.B) {
		var log []byte
		for n := 100_000; n <= total; n += 100_000 {
			log = append(log, loggen.Generate(100_000, int64(n))...)
		}
		benchTailPlainMemory(b, log)
	})
}

// benchTailPlainMemory appends log to a followed file in bursts and
// measures the follower as BenchmarkTailPlainMemory says.
func benchTailPlainMemory(b *testing.B, log []byte) {
	bin := agentwatchBinary(b)
	const burst, first = 20_000, 200_000
	lines := bytes.SplitAfter(log, []byte{'\n'})
	for b.Loop() {
		dir := b.TempDir()
		path, out := filepath.Join(dir, "growing.jsonl"), filepath.Join(dir, "lines.txt")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		stdout, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(bin, "tail", "--plain", path)
		cmd.Stdout = stdout
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		var atFirst, atEnd, most int64
		for n := 0; n < len(lines); {
			next := min(n+burst, len(lines))
			if _, err := f.Write(bytes.Join(lines[n:next], nil)); err != nil {
				b.Fatal(err)
			}
			n = next
			caughtUp(b, out)
			rss := rssOf(cmd.Process.Pid)
			switch {
			case n >= first && atFirst == 0:
				atFirst = rss
			case n > first:
				most = max(most, rss)
			}
			atEnd = rss
		}
		peak, _ := procmem.Field(strconv.Itoa(cmd.Process.Pid), "VmHWM")
		f.Close()
		cmd.Process.Kill()
		cmd.Wait()
		stdout.Close()
		b.ReportMetric(float64(atFirst)/(1<<20), "MiB-at-200k")
		b.ReportMetric(float64(atEnd)/(1<<20), "MiB-at-600k")
		b.ReportMetric(float64(atEnd)/float64(atFirst), "growth")
		b.ReportMetric(float64(most)/(1<<20), "MiB-max-after")
		b.ReportMetric(float64(peak)/(1<<20), "MiB-peak")
	}
}

// caughtUp waits until the follower's output has not grown for a second:
// it has read, folded and printed what was appended, and has been quiet
// for longer than it waits before giving memory back.
func caughtUp(b *testing.B, out string) {
	var last int64 = -1
	for still := time.Duration(0); still < time.Second; {
		time.Sleep(100 * time.Millisecond)
		st, err := os.Stat(out)
		if err != nil {
			b.Fatal(err)
		}
		if st.Size() == last {
			still += 100 * time.Millisecond
			continue
		}
		last, still = st.Size(), 0
	}
}
