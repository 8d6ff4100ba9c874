package fold_test

import (
	"flag"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The hostile inputs, folded as `agentwatch fold` folds a file: through
// Threads in batches of benchBatch, then the summary written as JSON. Each
// once took from seconds to minutes, growing with the square of its size;
// each must fold in well under 3 s. The records are generated (by
// internal/testkit/hostile and hostile_gen_test.go) before the clock starts; the
// time is the fold's.

var hostileN = flag.Int("hostile.n", 0, "size of the hostile inputs instead of their own (to see how the time grows)")

// hostileSize is n, or -hostile.n when set.
func hostileSize(n int) int {
	if *hostileN > 0 {
		return *hostileN
	}
	return n
}

// benchHostile folds recs once per iteration and checks the result with check.
func benchHostile(b *testing.B, recs []model.Record, check func(testing.TB, *fold.Fold)) {
	b.ReportAllocs()
	for b.Loop() {
		check(b, foldAsCLI(b, recs))
	}
	b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkHostileArgDeltas: one tool call whose arguments stream in
// 1,000,000 deltas (once 261 s).
func BenchmarkHostileArgDeltas(b *testing.B) {
	n := hostileSize(1_000_000)
	benchHostile(b, hostileRecords(b, "arg-deltas", n), func(tb testing.TB, f *fold.Fold) {
		if s := f.Steps(); len(s) != 1 || len(s[0].Args) != len(`{"text":"`)+4*n+len(`"}`) {
			tb.Fatalf("%d steps, want 1 with all its arguments", len(s))
		}
	})
}

// BenchmarkHostileToolCalls: 100,000 tool calls, each with its result
// (once 20 s).
func BenchmarkHostileToolCalls(b *testing.B) {
	n := hostileSize(100_000)
	benchHostile(b, hostileRecords(b, "tool-calls", n), func(tb testing.TB, f *fold.Fold) {
		if got := len(f.Steps()); got != n {
			tb.Fatalf("%d steps, want %d", got, n)
		}
	})
}

// BenchmarkHostileParallelCalls: one message with 100,000 tool calls, one
// after the other, then all their results (once 53 s).
func BenchmarkHostileParallelCalls(b *testing.B) {
	n := hostileSize(100_000)
	benchHostile(b, parallelCallRecords(b, n), func(tb testing.TB, f *fold.Fold) {
		if got := len(f.Messages()); got != n+1 {
			tb.Fatalf("%d messages, want %d", got, n+1)
		}
	})
}

// BenchmarkHostileOpenCalls: one message with 100,000 tool calls open at
// once (30,000 once took 7.5 s).
func BenchmarkHostileOpenCalls(b *testing.B) {
	n := hostileSize(100_000)
	benchHostile(b, openCallRecords(b, n), func(tb testing.TB, f *fold.Fold) {
		if got := len(f.Steps()); got != n {
			tb.Fatalf("%d steps, want %d", got, n)
		}
	})
}

// BenchmarkHostileStateDeltas: 100,000 STATE_DELTAs that each add an item
// to one array (once 24 s).
func BenchmarkHostileStateDeltas(b *testing.B) {
	n := hostileSize(100_000)
	benchHostile(b, hostileRecords(b, "state-deltas", n), func(tb testing.TB, f *fold.Fold) {
		if len(f.Warnings())+len(f.Diagnostics()) > 0 {
			tb.Fatalf("%d warnings, %d problems", len(f.Warnings()), len(f.Diagnostics()))
		}
	})
}

// BenchmarkHostileDeepPatch: 20 state snapshots nested as deep as the fold
// keeps them (999 levels), each with a delta that changes its innermost
// value; then 20 nested 9,000 levels deep with theirs, which the fold
// refuses (each such pair once took 2.4 s and 794 MB).
func BenchmarkHostileDeepPatch(b *testing.B) {
	recs := deepPatchRecords(b, 20, agui.MaxDepth-1)
	far := deepPatchRecords(b, 20, 9000)
	recs = append(recs[:len(recs)-1], far[1:]...) // one run
	for i := range recs {
		recs[i].Seq = uint64(i + 1)
	}
	benchHostile(b, recs, func(tb testing.TB, f *fold.Fold) {
		if got := len(f.Diagnostics()); got != 20 {
			tb.Fatalf("%d problems, want one for each snapshot too deep", got)
		}
	})
}
