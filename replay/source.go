package replay

import (
	"fmt"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// Source gives a timeline and a player a recorded log's records by
// position, and their times; its length may grow while a big file is still
// being indexed.
type Source interface {
	// Len is how many records are known.
	Len() int
	// Time is record i's recorded time (zero when it has none).
	Time(i int) time.Time
	// Records returns records i to j-1, decoded.
	Records(i, j int) ([]model.Record, error)
}

// Slice is a Source over records held in memory.
type Slice []model.Record

// Len is the number of records.
func (s Slice) Len() int { return len(s) }

// Time is record i's time.
func (s Slice) Time(i int) time.Time { return s[i].At }

// Records returns s[i:j] (not to be modified).
func (s Slice) Records(i, j int) ([]model.Record, error) {
	if i < 0 || j > len(s) || i > j {
		return nil, fmt.Errorf("records %d–%d out of range [0, %d]", i, j, len(s))
	}
	return s[i:j:j], nil
}

// Subset is a Source of some of another source's records, in the order of
// positions (increasing positions into src): a replay of one thread of a
// log of many.
func Subset(src Source, positions []int) Source { return &subset{src: src, pos: positions} }

type subset struct {
	src Source
	pos []int
}

func (s *subset) Len() int             { return len(s.pos) }
func (s *subset) Time(i int) time.Time { return s.src.Time(s.pos[i]) }

// Records reads the records in runs of neighbouring positions, so a thread
// whose records lie together costs one read per run.
func (s *subset) Records(i, j int) ([]model.Record, error) {
	if i < 0 || j > len(s.pos) || i > j {
		return nil, fmt.Errorf("records %d–%d out of range [0, %d]", i, j, len(s.pos))
	}
	out := make([]model.Record, 0, j-i)
	for k := i; k < j; {
		e := k + 1
		for e < j && s.pos[e] == s.pos[e-1]+1 {
			e++
		}
		recs, err := s.src.Records(s.pos[k], s.pos[e-1]+1)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
		k = e
	}
	return out, nil
}
