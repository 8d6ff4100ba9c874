package app

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// wholeReadFloor is the least memory limit set for reading a source whole:
// small logs are read without collecting garbage at all.
const wholeReadFloor = 64 << 20

// tuneForWholeRead sets the garbage collector for a command that reads a
// whole source and keeps its fold: collect less often (GOGC 400) but keep
// the heap under 1.3× the input's size (or 64 MiB, for small input).
//
// A fold keeps about 0.9× the log it was made from, so the default (a
// collection whenever the heap doubles) both collected over and over while
// the fold grew and let the heap reach twice the log; 1.3× is the limit
// that kept the peak under 1.5× for a few per cent more time (the
// README's "Memory limits" has the figures). Standard input, whose size is
// unknown, keeps the defaults.
func tuneForWholeRead(src *Source) {
	size := int64(0)
	switch src.Kind {
	case KindEventLog, KindMessages, KindOTLP:
		size = src.Size
	case KindFolder:
		for _, m := range src.members {
			size += m.Size
		}
	default:
		return
	}
	debug.SetGCPercent(400)
	limit := max(wholeReadFloor, size*13/10)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.75, 2)
}

// tuneForReplay sets the garbage collector for replaying a file of size
// bytes, whose index, checkpoints and player's fold stay for as long as
// the replay runs: a limit of 1.25× the file, which follows the live heap
// at 1.5× once it passes 3/4 of it. The timeline and the player shed what
// is finished at each checkpoint, and the timeline keeps its checkpoints
// to a budget (replay.DefaultCheckpointBudget), so what a replay keeps is
// well under the file and the limit sets the peak; a limit at the file's
// size made a seek on a log of many threads wait for the collector (the
// README's benchmark table has the figures: BenchmarkReplayMemory).
func tuneForReplay(size int64) {
	debug.SetGCPercent(400)
	limit := max(wholeReadFloor, size*5/4)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.75, 1.5)
}

// tuneForScreen sets the garbage collector for the screen of a file, or a
// folder of logs, of size bytes: a memory limit of that size (or 64 MiB), which follows
// the live heap at twice its size once it passes 3/4 of it, as the
// default would.
//
// What the screen keeps of a file is bounded (it trims), but reading a
// big one makes garbage fast, and the collector's default (a collection
// when the heap doubles) left the peak to chance, from run to run of the
// same binary. A read-back index (app/readback_index.go) adds about 0.3×
// the file once a person scrolls back; the limit holds the peak under
// 1.2× with it (the README's "Memory limits").
func tuneForScreen(size int64) {
	limit := max(wholeReadFloor, size)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.75, 2)
}

// raiseLimitWhenOutgrown lifts the memory limit when the live heap comes
// near it: past the share near of the limit, the limit follows the live
// heap at follow times its size. Some logs fold into far more than 1.4×
// their size (100,000 tool calls of a few bytes each: 8×); under a limit
// it has outgrown, the collector would run without pause and a read of a
// few seconds take a minute. Following at twice the live heap is what the
// collector's default allows.
func raiseLimitWhenOutgrown(limit int64, near, follow float64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if live := float64(sample[0].Value.Uint64()); live > near*float64(limit) {
			limit = int64(follow * live)
			debug.SetMemoryLimit(limit)
		}
	}
}
