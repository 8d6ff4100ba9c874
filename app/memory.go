package app

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// wholeReadFloor is the least memory limit set for reading a source whole:
// small logs are read without collecting garbage at all.
const wholeReadFloor = 64 << 20

// tuneForWholeRead sets the garbage collector for a command that reads a
// whole source and keeps its fold: collect less often (GOGC 400) but keep
// the heap under 1.4× the input's size (or 64 MiB, for small input).
//
// A fold keeps about 1.2× the log it was made from, so the default (a
// collection whenever the heap doubles) both collected over and over while
// the fold grew and let the heap reach twice the log. On the 126 MB,
// 700,000-event log, `fold` took 1.17 s and 245 MB; with this, 1.01 s and
// 191 MB (go build, then /usr/bin/time -f '%e s %M KB' agentwatch fold).
// Standard input, whose size is unknown, keeps the defaults.
func tuneForWholeRead(src *Source) {
	size := int64(0)
	switch src.Kind {
	case KindEventLog, KindMessages, KindACPRecording, KindOTLP:
		if st, err := os.Stat(src.Arg); err == nil {
			size = st.Size()
		}
	case KindFolder:
		for _, f := range src.Files {
			if st, err := os.Stat(f); err == nil {
				size += st.Size()
			}
		}
	default:
		return
	}
	debug.SetGCPercent(400)
	limit := max(wholeReadFloor, size*14/10)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.75, 2)
}

// tuneForReplay sets the garbage collector for replaying a file of size
// bytes, whose fold, checkpoints and index stay for as long as the replay
// runs: the limit of a whole read (1.4× the file), which the live heap
// may come closer to before the limit follows it, and then at 1.25× its
// size rather than 2×.
//
// A replay keeps more than a fold: on the 126 MB, 700,000-event log the
// fold is 103 MiB, its checkpoints 26 MiB and the index 9 MiB, 143 MiB in
// all (1.19× the file). Under a whole read's rule the limit followed that
// heap at twice its size and the replay peaked at 2.0× the file resident;
// under this one the limit stays at 1.4× and the peak is 1.6× (go test
// ./app/ -run '^$' -bench ReplayMemory), for about 4 s more of the
// collector's CPU while the file is indexed. A log that folds into many
// times its size still gets a limit that follows it, so the collector
// never runs without pause.
func tuneForReplay(size int64) {
	debug.SetGCPercent(400)
	limit := max(wholeReadFloor, size*14/10)
	debug.SetMemoryLimit(limit)
	go raiseLimitWhenOutgrown(limit, 0.9, 1.25)
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
