package replay

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// timesOnly is a Source of times alone, growing as a big file's index does.
type timesOnly struct {
	at []time.Time
	n  int // how many are known
}

func (s *timesOnly) Len() int                                 { return s.n }
func (s *timesOnly) Time(i int) time.Time                     { return s.at[i] }
func (s *timesOnly) Records(i, j int) ([]model.Record, error) { return nil, nil }

// referenceSchedule is when each record plays, worked out record by record
// as the schedule's definition says.
func referenceSchedule(at []time.Time, opts ScheduleOptions) []time.Duration {
	timed := false
	for _, t := range at {
		timed = timed || !t.IsZero()
	}
	out := make([]time.Duration, len(at))
	var last time.Time
	for i, t := range at {
		var due time.Duration
		if i > 0 {
			due = out[i-1]
		}
		switch {
		case !timed && i > 0:
			due += opts.Pace
		case timed && !t.IsZero():
			if gap := t.Sub(last); !last.IsZero() && gap > 0 {
				if opts.IdleCap > 0 {
					gap = min(gap, opts.IdleCap)
				}
				due += gap
			}
			if t.After(last) {
				last = t
			}
		}
		out[i] = due
	}
	return out
}

// A schedule kept a block at a time says what the record-by-record one
// says, for every record and every time, however its source grew: times
// missing, going back, gaps over the cap, logs without times.
func TestScheduleBlocksMatchRecordByRecord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{0, 1, 2, 63, 64, 65, 128, 129, 1000} {
		for _, untimed := range []bool{false, true} {
			at := make([]time.Time, n)
			now := base
			for i := range at {
				switch r := rng.IntN(10); {
				case untimed || r == 0:
					// no time
				case r == 1:
					at[i] = now.Add(-time.Duration(rng.IntN(5000)) * time.Millisecond) // back
				case r == 2:
					now = now.Add(time.Duration(rng.IntN(60)) * time.Second) // idle
					at[i] = now
				default:
					now = now.Add(time.Duration(rng.IntN(300)) * time.Millisecond)
					at[i] = now
				}
			}
			opts := ScheduleOptions{IdleCap: 2 * time.Second, Pace: 100 * time.Millisecond}
			want := referenceSchedule(at, opts)
			src := &timesOnly{at: at, n: min(n, 5)}
			s := NewSchedule(src, opts)
			for src.n < n {
				src.n = min(n, src.n+1+rng.IntN(150))
				s.Extend(src)
			}
			if s.Len() != n {
				t.Fatalf("n=%d: Len %d", n, s.Len())
			}
			for i, w := range want {
				if got := s.At(i); got != w {
					t.Fatalf("n=%d untimed=%v: At(%d) = %v, want %v", n, untimed, i, got, w)
				}
			}
			if n > 0 && s.Total() != want[n-1] {
				t.Errorf("n=%d: Total %v, want %v", n, s.Total(), want[n-1])
			}
			probes := []time.Duration{-1, 0, 1 << 62}
			for _, w := range want {
				probes = append(probes, w-1, w, w+1)
			}
			for _, d := range probes {
				wantDue := sort.Search(n, func(i int) bool { return want[i] > d })
				if got := s.Due(d); got != wantDue {
					t.Fatalf("n=%d untimed=%v: Due(%v) = %d, want %d", n, untimed, d, got, wantDue)
				}
			}
		}
	}
}
