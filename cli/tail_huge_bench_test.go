package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/hostile"
)

// BenchmarkTailHugeProcess runs `agentwatch tail --plain FILE` on an empty
// file, appends one 50 MiB message to it (internal/hostile) in one write,
// and reports how long the process takes to print the run's end after it,
// the message between: 1.66–1.76 s, against 2.94–3.31 s before the tail
// copied huge lines a piece at a time (internal/piecewise).
//
//	go test ./cli/ -run '^$' -bench TailHugeProcess -benchtime 3x
func BenchmarkTailHugeProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	var log bytes.Buffer
	if err := hostile.Write(&log, "message", 50<<20); err != nil {
		b.Fatal(err)
	}
	var took time.Duration
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "live.jsonl")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(bin, "tail", "--plain", path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // the tail is following the empty file
		start := time.Now()
		if err := os.WriteFile(path, log.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		agent, end := false, false
		for !end && sc.Scan() {
			agent = agent || strings.HasPrefix(sc.Text(), "agent: ")
			end = strings.HasPrefix(sc.Text(), "run r1 completed")
		}
		took += time.Since(start)
		cmd.Process.Kill()
		cmd.Wait()
		if !agent || !end {
			b.Fatalf("the message and the run's end were not printed (message %v, end %v)", agent, end)
		}
	}
	b.ReportMetric(took.Seconds()/float64(b.N), "s-to-print")
}
