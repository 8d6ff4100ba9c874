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
//
// It keeps where every 64th record plays and works out the records between
// from their times in the source when asked: a time per record would be
// 8 bytes a record, copied whole each time the slice grew; a record's time is one read of
// the source's index, so working out up to 63 of them costs about a
// microsecond, far below a frame.
type Schedule struct {
	opts ScheduleOptions
	src  Source
	// mu guards what Extend may grow on another goroutine while a big log
	// is still being indexed.
	mu     sync.RWMutex
	n      int             // records scheduled
	blocks []scheduleBlock // one per scheduleBlockLen records
	end    scheduleBlock   // the state after record n-1
	timed  bool
}

// scheduleBlockLen is how many records a schedule block covers.
const scheduleBlockLen = 64

// scheduleBlock is the schedule's state right after a record: when that
// record plays, and the latest recorded time seen up to it.
type scheduleBlock struct {
	due  time.Duration
	last time.Time
}

// NewSchedule schedules the records src knows now; Extend adds later ones.
// The schedule reads record times from src when asked, so src must keep
// them (its length may grow).
func NewSchedule(src Source, opts ScheduleOptions) *Schedule {
	s := &Schedule{opts: opts, src: src}
	for i := range src.Len() {
		if !src.Time(i).IsZero() {
			s.timed = true
			break
		}
	}
	s.Extend(src)
	return s
}

// next returns the state after record i given the state after record i-1
// (the zero state for i = 0).
func (s *Schedule) next(i int, prev scheduleBlock) scheduleBlock {
	if i == 0 {
		prev.due = 0
	}
	if !s.timed {
		if i > 0 {
			prev.due += s.opts.Pace
		}
		return prev
	}
	if t := s.src.Time(i); !t.IsZero() {
		if !prev.last.IsZero() {
			if gap := t.Sub(prev.last); gap > 0 {
				if s.opts.IdleCap > 0 && gap > s.opts.IdleCap {
					gap = s.opts.IdleCap
				}
				prev.due += gap
			}
		}
		if t.After(prev.last) {
			prev.last = t
		}
	}
	return prev
}

// Extend schedules the records src learned of since the last call (src is
// the source the schedule was made over).
func (s *Schedule) Extend(src Source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.src = src
	for ; s.n < src.Len(); s.n++ {
		s.end = s.next(s.n, s.end)
		if s.n%scheduleBlockLen == 0 {
			s.blocks = append(s.blocks, s.end)
		}
	}
}

// Len is the number of records scheduled.
func (s *Schedule) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.n
}

// At is when record i plays.
func (s *Schedule) At(i int) time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if i < 0 || i >= s.n {
		panic("replay: Schedule.At out of range")
	}
	b := i / scheduleBlockLen
	st := s.blocks[b]
	for k := b*scheduleBlockLen + 1; k <= i; k++ {
		st = s.next(k, st)
	}
	return st.due
}

// Total is when the last record plays.
func (s *Schedule) Total() time.Duration {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.end.due
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
	// Times never go back, so the first block that starts after d ends
	// the search, and the records due are within the block before it.
	b := sort.Search(len(s.blocks), func(b int) bool { return s.blocks[b].due > d })
	if b == 0 {
		return 0
	}
	b--
	st, k := s.blocks[b], b*scheduleBlockLen
	for k+1 < s.n && k+1 < (b+1)*scheduleBlockLen {
		nx := s.next(k+1, st)
		if nx.due > d {
			break
		}
		st, k = nx, k+1
	}
	return k + 1
}
