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
// the fold grew and let the heap reach twice the log. On the 126 MB,
// 700,000-event log, `fold` took 1.17 s and 245 MB; with a 1.4× limit,
// 1.01 s and 191 MB; with 1.3×, a peak of 1.41–1.42× the file against
// 1.51× at 1.4×, for 1–3 % more time (go build, then /usr/bin/time -f
// '%e s %M KB' agentwatch fold, three runs each). Standard input, whose
// size is unknown, keeps the defaults.
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
// the replay runs: a limit of the file's size, which follows the live heap
// once it passes 3/4 of it, at 1.5× the live heap rather than 2×.
//
// The timeline and the player shed what is finished at each checkpoint
// (replay.ShedForCheckpoint), so on the 126 MB, 700,000-event log a replay
// keeps 53 MiB (0.42× the file; 141 MiB before they shed). The limit
// then sets the peak. Peak resident against the file, the collector's CPU
// time, and seeks anywhere after the file is indexed (200 in a row, median
// / 99th percentile), by limit (go test ./app/ -run '^$' -bench
// ReplayMemory -benchtime 3x):
//
//	1.4× the file   1.49×   0.36 s   3.5 / 12 ms
//	1×              1.15×   0.72 s   4.0 / 16 ms
//	0.8×            0.96×   1.39 s   5.4 / 20 ms
//
// The file's size keeps well within the budget of 1.5× for half a second
// more of collecting over the whole index.
func tuneForReplay(size int64) {
	debug.SetGCPercent(400)
	limit := max(wholeReadFloor, size)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.75, 1.5)
}

// tuneForScreen sets the garbage collector for the screen of a file, or a
// folder of logs, of size bytes: a memory limit of that size (or 64 MiB), which follows
// the live heap at twice its size once it passes 3/4 of it, as the
// default would.
//
// What the screen keeps of a file is bounded (it sheds), but reading a
// big one makes garbage fast, and the collector's default (a collection
// when the heap doubles) left the peak to chance: the 126 MB,
// 700,000-event log peaked at 172–215 MB (1.36–1.70×) over four runs of
// the same binary. A read-back index (app/readback_index.go) adds about
// 0.3× the file once a person scrolls back. With the limit: 146.5–147.2 MB
// (1.16×), after reading back too; a folder of six logs, 22 MB in all,
// 129–131 MB where it peaked at 150–176 MB.
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
