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
