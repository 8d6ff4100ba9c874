package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// agentwatchBinary builds the command once per test binary.
func agentwatchBinary(b testing.TB) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentwatch-bench")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "agentwatch")
		out, err := exec.Command("go", "build", "-o", binPath, "..").CombinedOutput()
		if err != nil {
			binErr = err
			b.Logf("%s", out)
		}
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

// benchLog writes loggen's log of n events into dir and returns its path,
// its size and its event count.
func benchLog(b *testing.B, dir string, n int) (string, int64, int) {
	log := loggen.Generate(n, 1)
	path := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(len(log)), bytes.Count(log, []byte{'\n'})
}

// BenchmarkFoldProcess runs the whole agentwatch process, as a script
// would: `agentwatch fold FILE >/dev/null` on loggen logs of 100,000 and
// 700,000 events. It reports events per second end to end (start to exit)
// and the peak resident memory against the file's size. The budgets: at
// least 1,000,000 events/s at 100,000 events, the cost per event flat up
// to 700,000, and at most 1.5× the file resident.
//
//	go test ./cli/ -run '^$' -bench FoldProcess -benchtime 5x
func BenchmarkFoldProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	for _, n := range []int{100_000, 700_000} {
		b.Run(itoa(n), func(b *testing.B) {
			path, size, events := benchLog(b, b.TempDir(), n)
			var best time.Duration
			var rss int64
			for b.Loop() {
				took, peak := runMeasured(b, bin, "fold", path)
				if best == 0 || took < best {
					best = took
				}
				rss = max(rss, peak)
			}
			b.ReportMetric(float64(events)/(b.Elapsed().Seconds()/float64(b.N)), "events/s")
			b.ReportMetric(float64(events)/best.Seconds(), "best-events/s")
			if rss > 0 {
				b.ReportMetric(float64(rss)/float64(size), "peak-rss/file")
			}
		})
	}
}

// runMeasured runs bin with args, output discarded, and returns how long
// it took and its peak resident memory in bytes (0 when it cannot be
// told). The peak comes from /usr/bin/time, which forks the command from
// a small process: a child forked straight from this big test process
// would report this process's peak, as Linux keeps the largest resident
// size across exec.
func runMeasured(b *testing.B, bin string, args ...string) (time.Duration, int64) {
	var cmd *exec.Cmd
	timer, err := exec.LookPath("/usr/bin/time")
	var errb bytes.Buffer
	if err == nil {
		cmd = exec.Command(timer, append([]string{"-f", "%M", bin}, args...)...)
		cmd.Stderr = &errb
	} else {
		cmd = exec.Command(bin, args...)
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v\n%s", bin, args, err, errb.String())
	}
	took := time.Since(start)
	var kb int64
	if f := bytes.Fields(errb.Bytes()); len(f) > 0 {
		for _, c := range f[len(f)-1] {
			if c < '0' || c > '9' {
				return took, 0
			}
			kb = kb*10 + int64(c-'0')
		}
	}
	return took, kb * 1024
}

func itoa(n int) string {
	switch {
	case n%1000 == 0:
		return fmtInt(n/1000) + "k"
	}
	return fmtInt(n)
}

func fmtInt(n int) string {
	var b []byte
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}
