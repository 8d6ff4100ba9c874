package app

import (
	"runtime/debug"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// plainQuiet is how long --plain waits with nothing arriving, after a
// burst, before it gives back the memory the burst left.
const plainQuiet = 300 * time.Millisecond

// plainBurst is how many records since the last give-back make a burst: a
// stream that trickles a record at a time is not collected after each.
const plainBurst = 4096

// plainGiveBack returns the memory a burst of records left behind to the
// system once the source goes quiet.
//
// What --plain keeps of a thread stays a few MiB however long the thread
// runs (plainLimits), but reading a burst decodes a step of the file or
// more at once, and the collector lets the heap grow to twice what was
// live at its last collection and keeps it so: the memory a follower held
// while it waited was decided by how much was in flight when the last
// collection ran, not by what it keeps. BenchmarkTailPlainMemory (one
// thread growing to 600,000 events in bursts of 20,000), two runs: 48–49
// MiB resident at 200,000 events and 59–60 MiB at 600,000 (1.19–1.25×)
// without giving back; 37–38 MiB at both (1.00–1.04×) with it, and a busy
// peak (VmHWM) of 60 MiB instead of 64–66.
//
// The give-back runs beside the printer, not in its way: a collection and
// the return of the pages took 3–40 ms on the loaded 2-core machine (a
// program holding 5 MB after making 40 MB of garbage), and the record that
// ends a quiet spell is printed at once all the same.
type plainGiveBack struct {
	// quiet returns a channel that fires once the source has been quiet
	// long enough (plainQuiet; tests fire it by hand).
	quiet func() <-chan time.Time
	// release gives memory back (debug.FreeOSMemory: a collection, then
	// the free pages returned).
	release func()
	// at is the record count (plainMemory.seen) of the last give-back;
	// released counts the give-backs.
	at       uint64
	released int
}

func newPlainGiveBack() plainGiveBack {
	return plainGiveBack{quiet: func() <-chan time.Time { return time.After(plainQuiet) }, release: debug.FreeOSMemory}
}

// next waits for in's next batch (ok false once in is closed). When none
// is waiting and a burst was printed since the last give-back, it gives
// the memory back if nothing comes for plainQuiet.
func (m *plainMemory) next(in <-chan model.Batch) (b model.Batch, ok bool) {
	select {
	case b, ok = <-in:
		return b, ok
	default:
	}
	if g := &m.giveBack; m.seen-g.at >= plainBurst {
		select {
		case b, ok = <-in:
			return b, ok
		case <-g.quiet():
			go g.release()
			g.at = m.seen
			g.released++
		}
	}
	b, ok = <-in
	return b, ok
}
