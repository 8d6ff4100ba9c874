package replay

import (
	"sort"
	"sync"
	"time"
)

// DefaultIdleCap is the longest gap a replay keeps, as asciinema's
// idle_time_limit: a run that waited ten minutes for a tool plays on.
const DefaultIdleCap = 2 * time.Second

// DefaultPace is the gap between records of a log that has no times.
const DefaultPace = 100 * time.Millisecond

// ScheduleOptions shape a replay's timeline.
type ScheduleOptions struct {
	// IdleCap shortens every recorded gap longer than it to it; 0 keeps
	// every gap.
	IdleCap time.Duration
	// Pace is the gap between records when no record has a time; 0 means
	// such a log only moves when stepped.
	Pace time.Duration
}

// Schedule is when each record plays, on the compressed timeline: the
// recorded offsets with gaps over the idle cap shortened to the cap. Speed
// does not change it (a player divides by the speed as it plays), so step
// and run markers stay where they are when the speed changes.
type Schedule struct {
	opts ScheduleOptions
	// mu guards at, which Extend may grow on another goroutine while a big
	// log is still being indexed.
	mu    sync.RWMutex
	at    []time.Duration
	timed bool
	last  time.Time // the latest recorded time seen
}

// NewSchedule schedules the records src knows now; Extend adds later ones.
func NewSchedule(src Source, opts ScheduleOptions) *Schedule {
	s := &Schedule{opts: opts}
	for i := range src.Len() {
		if !src.Time(i).IsZero() {
			s.timed = true
			break
		}
	}
	s.Extend(src)
	return s
}

// Extend schedules the records src learned of since the last call.
func (s *Schedule) Extend(src Source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.at); i < src.Len(); i++ {
		var due time.Duration
		if i > 0 {
			due = s.at[i-1]
		}
		if !s.timed {
			if i > 0 {
				due += s.opts.Pace
			}
			s.at = append(s.at, due)
			continue
		}
		if t := src.Time(i); !t.IsZero() {
			if !s.last.IsZero() {
				if gap := t.Sub(s.last); gap > 0 {
					if s.opts.IdleCap > 0 && gap > s.opts.IdleCap {
						gap = s.opts.IdleCap
					}
					due += gap
				}
			}
			if t.After(s.last) {
				s.last = t
			}
		}
		s.at = append(s.at, due)
	}
}

// Len is the number of records scheduled.
func (s *Schedule) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.at)
}

// At is when record i plays.
func (s *Schedule) At(i int) time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.at[i]
}

// Total is when the last record plays.
func (s *Schedule) Total() time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.at) == 0 {
		return 0
	}
	return s.at[len(s.at)-1]
}

// Timed reports whether the records carry times (else they play at Pace).
func (s *Schedule) Timed() bool { return s.timed }

// SteppingOnly reports whether the log cannot play by itself: no times and
// no pace.
func (s *Schedule) SteppingOnly() bool { return !s.timed && s.opts.Pace == 0 && s.Len() > 1 }

// Due is how many records have played by d: those scheduled at or before it.
func (s *Schedule) Due(d time.Duration) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sort.Search(len(s.at), func(i int) bool { return s.at[i] > d })
}
