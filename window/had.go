package window

// This file keeps what a view folded of each file source, record by
// record, as a small hash of each record's bytes: what is read back from
// the file is checked against it, so that a file changed under what the
// view let go (rewritten in place, even keeping its head and its length)
// is said to have changed instead of showing text the view never read.

import (
	"hash/maphash"
	"sync"

	"github.com/agentwatch/agentwatch/model"
)

// Had is what a view folded of one file source: a 32-bit hash of each
// record's raw bytes, by the record's place in the file (0 for its first
// record, counted from the file's start or from where it last started
// over). It costs 4 bytes a record (2.7 MiB for the 700,000 records of a
// 126 MB log). A Reader told of it (FileReader) checks the records it
// folds against it. It is safe for concurrent use: the view notes what it
// folds while reads check.
type Had struct {
	mu sync.Mutex
	// base is the Seq of the record before place 0; from is the place of
	// sums[0] (a view taken up from an earlier one's threads begins past
	// the records it never read).
	base uint64
	from int
	sums []uint32
	// started says the source started over and the next record is place 0.
	started bool
	// seen says a record was noted.
	seen bool
}

// hadSeed seeds the records' hashes: a view and the reads that check
// against it run in one process.
var hadSeed = maphash.MakeSeed()

// recordSum is the hash of a record's raw bytes kept in a Had.
func recordSum(r *model.Record) uint32 { return uint32(maphash.Bytes(hadSeed, r.Raw)) }

// note adds the records of b, which the view folds.
func (h *Had) note(b model.Batch) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b.Restart {
		h.sums, h.from, h.started, h.seen = h.sums[:0], 0, true, false
	}
	for i := range b.Records {
		r := &b.Records[i]
		if !h.seen {
			// Records are numbered from 1 since the file's start, and go on
			// numbering after it starts over, from where its place 0 is.
			if h.started {
				h.base = r.Seq - 1
			}
			h.from, h.seen = int(r.Seq-1-h.base), true
		}
		if place := int(r.Seq - 1 - h.base); place != h.from+len(h.sums) {
			// Records skipped or numbered again: what came before is not
			// known in order any more; check from here on.
			h.sums, h.from = h.sums[:0], place
		}
		h.sums = append(h.sums, recordSum(r))
	}
}

// Changed reports whether the file's records from place at, recs, are not
// what the view folded there, and the place of the first that is not.
// Records the view did not fold (before it took up, or past what it read)
// are not checked.
func (h *Had) Changed(at int, recs []model.Record) (int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range recs {
		k := at + i - h.from
		if k < 0 {
			continue
		}
		if k >= len(h.sums) {
			break
		}
		if recordSum(&recs[i]) != h.sums[k] {
			return at + i, true
		}
	}
	return 0, false
}

// Len is how many records the view folded, counted from the file's start
// (or from where it last started over).
func (h *Had) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.from + len(h.sums)
}

// FileReader is a Reader of a file source that wants to know when the
// view starts reading the file: it is handed what the view folds of it
// (Had), checks what it reads back against that, and may get ready to read
// back (index the file) before it is asked; then each batch the view
// folds, which it may fold too rather than read the file again. Both are
// called on the view's goroutine and must return at once.
type FileReader interface {
	Reader
	Reading(h *Had)
	Folded(b model.Batch)
}

// noteHad notes what the view folds of b's source when it is a file, and
// tells the source's reader when the view starts reading it.
func (w *Window) noteHad(b model.Batch) {
	if !w.IsFile(b.Source) {
		return
	}
	h := w.had[b.Source]
	r, _ := w.sourceReader(b.Source).(FileReader)
	if h == nil {
		if w.had == nil {
			w.had = map[string]*Had{}
		}
		h = &Had{}
		w.had[b.Source] = h
		if r != nil {
			r.Reading(h)
		}
	}
	h.note(b)
	if r != nil {
		r.Folded(b)
	}
}
