package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// BenchmarkHostileProcess runs the whole agentwatch process on the inputs
// that once made it quadratic, generated into a file first: `steps`,
// `validate` and `fold` on one tool call with 1,000,000 argument deltas,
// 100,000 tool calls and 100,000 state deltas, and `fold` on state patched
// as deep as agentwatch keeps it next to snapshots 9,000 levels deep (which
// it refuses), and `fold` on one 50 MiB message and one 50 MiB command
// output (events that took 4 s before their text was copied a piece at a
// time: see internal/piecewise). Each must finish in under 3 s; it reports
// the time of one run and the peak resident memory.
//
//	go test ./cli/ -run '^$' -bench HostileProcess -benchtime 1x
func BenchmarkHostileProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	dir := b.TempDir()
	for _, c := range []struct {
		kind     string
		n        int
		commands []string
	}{
		{"arg-deltas", 1_000_000, []string{"steps", "validate", "fold"}},
		{"tool-calls", 100_000, []string{"steps", "validate", "fold"}},
		{"state-deltas", 100_000, []string{"steps", "validate", "fold"}},
		{"deep-state", 20, []string{"fold"}},
		{"message", 50 << 20, []string{"fold"}},
		{"output", 50 << 20, []string{"fold"}},
	} {
		path := filepath.Join(dir, c.kind+".jsonl")
		writeHostile(b, path, c.kind, c.n)
		for _, cmd := range c.commands {
			b.Run(c.kind+"/"+cmd, func(b *testing.B) {
				var rss int64
				for b.Loop() {
					_, peak := runMeasured(b, bin, cmd, path)
					rss = max(rss, peak)
				}
				b.ReportMetric(float64(rss)/(1<<20), "peak-MiB")
			})
		}
	}
}

// writeHostile writes internal/testkit/hostile's input of kind into path, or for
// "deep-state" n pairs of a state snapshot 999 levels deep and a delta to
// its innermost value, then n pairs 9,000 levels deep.
func writeHostile(b *testing.B, path, kind string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if kind != "deep-state" {
		if err := hostile.Write(f, kind, n); err != nil {
			b.Fatal(err)
		}
		return
	}
	fmt.Fprintln(f, `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`)
	for _, depth := range []int{agui.MaxDepth - 1, 9000} {
		snapshot := strings.Repeat(`{"a":`, depth) + "0" + strings.Repeat("}", depth)
		for i := range n {
			fmt.Fprintf(f, `{"type":"STATE_SNAPSHOT","snapshot":%s}`+"\n", snapshot)
			fmt.Fprintf(f, `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"%s","value":%d}]}`+"\n", strings.Repeat("/a", depth), i)
		}
	}
	fmt.Fprintln(f, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
}
