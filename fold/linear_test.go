package fold_test

import (
	"runtime"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// TestHostileInputsAllocateLinearly: what folding a hostile input
// allocates, per byte of input, stays the same when the input grows
// ten-fold. Each of them once allocated in proportion to the square of its
// size (a text copied whole at every delta, the state decoded and encoded
// at every patch, a patch path decoded once per level); no clock is read.
func TestHostileInputsAllocateLinearly(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(n int) []model.Record
		n    int
	}{
		{"tool-call argument deltas", func(n int) []model.Record { return hostileRecords(t, "arg-deltas", n) }, 5_000},
		{"text deltas", func(n int) []model.Record { return deltaRecords(t, "TEXT_MESSAGE", n) }, 5_000},
		{"reasoning deltas", func(n int) []model.Record { return deltaRecords(t, "REASONING_MESSAGE", n) }, 5_000},
		{"state deltas", func(n int) []model.Record { return hostileRecords(t, "state-deltas", n) }, 5_000},
		{"tool calls", func(n int) []model.Record { return hostileRecords(t, "tool-calls", n) }, 1_000},
		{"state patched levels deep", func(n int) []model.Record { return deepPatchRecords(t, 5, n) }, 90},
	} {
		small := allocatedPerByte(t, c.make(c.n))
		big := allocatedPerByte(t, c.make(10*c.n))
		t.Logf("%s: %.2f bytes allocated per byte of input at %d, %.2f at %d", c.name, small, c.n, big, 10*c.n)
		if big > 2*small {
			t.Errorf("%s: %.2f bytes allocated per byte of input at %d, %.2f at %d: it grows with the input", c.name, small, c.n, big, 10*c.n)
		}
	}
}

// allocatedPerByte folds recs as `agentwatch fold` does and returns the
// bytes it allocated per byte of input.
func allocatedPerByte(t *testing.T, recs []model.Record) float64 {
	t.Helper()
	size := 0
	for _, r := range recs {
		size += len(r.Raw)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f := foldAsCLI(t, recs)
	runtime.ReadMemStats(&after)
	if d := f.Diagnostics(); len(d) > 0 {
		t.Fatalf("the input has problems, first %+v", d[0])
	}
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(size)
}
