package window

import (
	"strconv"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// rawRecords are records from Seq first on, their raw bytes saying their
// number with prefix.
func rawRecords(first uint64, n int, prefix string) []model.Record {
	out := make([]model.Record, n)
	for i := range out {
		seq := first + uint64(i)
		out[i] = model.Record{Seq: seq, Raw: []byte(`{"n":"` + prefix + strconv.FormatUint(seq, 10) + `"}`)}
	}
	return out
}

// What a view folded of a file is what its records are checked against, by
// their place in the file: from its start, from where a view taken up
// began, and from where the file started over.
func TestHadChecksByPlace(t *testing.T) {
	t.Run("from the start", func(t *testing.T) {
		var h Had
		h.note(model.Batch{Records: rawRecords(1, 10, "a"), Size: 100})
		h.note(model.Batch{Records: rawRecords(11, 5, "a"), Size: 100})
		if h.Len() != 15 {
			t.Fatalf("had %d records, want 15", h.Len())
		}
		// The file's records 4 to 8 (places 3 to 7) are what the view folded.
		if at, changed := h.Changed(3, rawRecords(4, 5, "a")); changed {
			t.Fatalf("records the view folded count as changed at %d", at)
		}
		recs := rawRecords(4, 5, "a")
		recs[2].Raw = []byte(`{"n":"b6"}`)
		if at, changed := h.Changed(3, recs); !changed || at != 5 {
			t.Fatalf("a record rewritten at place 5: changed %v at %d", changed, at)
		}
		// Past what the view read nothing is known.
		if _, changed := h.Changed(15, rawRecords(16, 3, "z")); changed {
			t.Fatal("records the view never folded count as changed")
		}
	})
	t.Run("taken up", func(t *testing.T) {
		var h Had
		h.note(model.Batch{Records: rawRecords(101, 10, "a"), Size: 100})
		if _, changed := h.Changed(0, rawRecords(1, 100, "other")); changed {
			t.Fatal("records before the view took up count as changed")
		}
		if at, changed := h.Changed(95, rawRecords(96, 10, "other")); !changed || at != 100 {
			t.Fatalf("the first record the view folded, changed: %v at %d", changed, at)
		}
	})
	t.Run("started over", func(t *testing.T) {
		var h Had
		h.note(model.Batch{Records: rawRecords(1, 10, "a"), Size: 100})
		h.note(model.Batch{Restart: true, Size: 100})
		h.note(model.Batch{Records: rawRecords(11, 4, "b"), Size: 100})
		if h.Len() != 4 {
			t.Fatalf("had %d records after starting over, want 4", h.Len())
		}
		// The file's records are numbered from 1 again when read back.
		if at, changed := h.Changed(0, rawRecords(11, 4, "b")); changed {
			t.Fatalf("the new start's records count as changed at %d", at)
		}
		if _, changed := h.Changed(0, rawRecords(1, 4, "a")); !changed {
			t.Fatal("the records from before it started over count as what the view has")
		}
	})
}

// fileReaderSpy is a FileReader that keeps what it is told.
type fileReaderSpy struct {
	Reader
	told   []*Had
	folded int
}

func (s *fileReaderSpy) Reading(h *Had)       { s.told = append(s.told, h) }
func (s *fileReaderSpy) Folded(b model.Batch) { s.folded += len(b.Records) }

// A file's reader is told once, at the file's first batch, what the view
// folds of it, and given every batch; a stream's is never asked for then.
func TestFileReaderToldOnce(t *testing.T) {
	spy := &fileReaderSpy{}
	asked := map[string]int{}
	w := New(Options{Reader: func(source string) Reader {
		asked[source]++
		if source == "run.jsonl" {
			return spy
		}
		return nil
	}})
	w.Read(model.Batch{Source: "run.jsonl", Records: rawRecords(1, 3, "a"), Size: 300, Read: 100})
	w.Read(model.Batch{Source: "run.jsonl", Records: rawRecords(4, 3, "a"), Size: 300, Read: 200})
	w.Read(model.Batch{Source: "-", Records: rawRecords(1, 3, "a")})
	if len(spy.told) != 1 || spy.told[0].Len() != 6 || spy.folded != 6 {
		t.Fatalf("the file's reader was told %d times (%v), and given %d records of 6", len(spy.told), spy.told, spy.folded)
	}
	if asked["run.jsonl"] != 1 || asked["-"] != 0 {
		t.Fatalf("readers asked for %v, want the file's once and the stream's not yet", asked)
	}
}
