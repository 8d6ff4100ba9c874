package sources

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// A record without a timestamp of its own that the file held when the tail
// found it gets no time: its arrival says nothing of when it was written.
// One appended while the tail watches gets its arrival time, and so does
// every record of a file that came after the tail started, or started over.
func TestTailTimesOnlyWhatArrives(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "old.jsonl")
	held, _ := lines(0, 5)
	if err := os.WriteFile(path, []byte(held), 0o644); err != nil {
		t.Fatal(err)
	}
	l := startTail(t, path)
	l.waitFor(t, "the file's records", func(recs []model.Record, _ []TailEvent) bool { return len(recs) == 5 })
	more, _ := lines(5, 8)
	appendFile(t, path, more)
	l.waitFor(t, "the appended records", func(recs []model.Record, _ []TailEvent) bool { return len(recs) == 8 })
	l.mu.Lock()
	for i, r := range l.recs {
		if i < 5 && !r.At.IsZero() {
			t.Errorf("record %d, there before the tail, has time %v", i+1, r.At)
		}
		if i >= 5 && r.At.IsZero() {
			t.Errorf("record %d, appended while watched, has no time", i+1)
		}
	}
	l.mu.Unlock()

	// A file that is not there yet: all it brings arrives while watched.
	later := filepath.Join(dir, "later.jsonl")
	l2 := startTail(t, later)
	l2.waitEvent(t, TailWaiting)
	if err := os.WriteFile(later, []byte(held), 0o644); err != nil {
		t.Fatal(err)
	}
	l2.waitFor(t, "the new file's records", func(recs []model.Record, _ []TailEvent) bool { return len(recs) == 5 })
	l2.mu.Lock()
	defer l2.mu.Unlock()
	for i, r := range l2.recs {
		if r.At.IsZero() {
			t.Errorf("record %d of a file made while watched has no time", i+1)
		}
	}
}
