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

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
)

// BenchmarkTailHugeProcess runs `agentwatch tail --plain FILE` on an empty
// file, appends one 50 MiB message (internal/testkit/hostile) to it in one write,
// as JSON Lines and as a JSON array (what --record writes), and reports
// how long the process takes to print the run's end after it, the message
// between: 1.66–2.32 s for JSON Lines and 2.46–2.58 s for the array, the
// old and new builds run in turns, against 3.93–4.38 s and 7.44–7.55 s
// before huge events were copied a piece at a time and an unfinished array
// element was decoded again at every read step.
//
//	go test ./cli/ -run '^$' -bench TailHugeProcess -benchtime 3x
func BenchmarkTailHugeProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	var log bytes.Buffer
	if err := hostile.Write(&log, "message", 50<<20); err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	for _, c := range []struct{ name, text string }{
		{"jsonl", log.String()},
		{"array", "[\n" + strings.Join(lines, ",\n") + "\n]\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var took time.Duration
			for b.Loop() {
				took += tailHuge(b, bin, c.text)
			}
			b.ReportMetric(took.Seconds()/float64(b.N), "s-to-print")
		})
	}
}

// tailHuge follows an empty file with `agentwatch tail --plain`, writes
// text into it, and returns how long the run's end took to be printed.
func tailHuge(b *testing.B, bin, text string) time.Duration {
	path := filepath.Join(b.TempDir(), "live.log")
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
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	time.Sleep(300 * time.Millisecond) // the tail is following the empty file
	start := time.Now()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	agent, end := false, false
	for !end && sc.Scan() {
		agent = agent || strings.HasPrefix(sc.Text(), "agent: ")
		end = strings.HasPrefix(sc.Text(), "run r1 completed")
	}
	took := time.Since(start)
	if !agent || !end {
		b.Fatalf("the message and the run's end were not printed (message %v, end %v)", agent, end)
	}
	return took
}
