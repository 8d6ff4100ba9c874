package search

// This file searches an archive's shelf: the first match in a range of
// items, for the keystroke, and every match, a few blocks at a time, for
// the count that fills in after it. Both run off the screen's goroutine.

import (
	"slices"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// Scan is one query's search of an archive's shelf. Its methods are used
// by one goroutine at a time: the screen hands it to a command and takes
// it back with the command's message.
type Scan struct {
	shelf Shelf
	gen   int
	m     Matcher
	grams []uint32
	// live is the Seq of each item the screen searches itself (those it
	// keeps), sorted: the scan leaves them out.
	live []uint64
	// within, when not nil, is the only places that may match (the
	// matches of a shorter query: a longer one matches a subset of them).
	within []place
	// steps, when filtered, is the steps a filter keeps, sorted: a tool
	// call of another step is left out.
	steps    []int
	filtered bool
	// next is the next block the count reads (or, narrowing, the next
	// place of within), found the places matched so far, buf where the
	// count reads blocks back.
	next  int
	found []place
	buf   []byte
}

// place is an entry of a shelf: its block and its index there.
type place struct{ block, entry int32 }

// Scan starts a search of what the archive holds now for m, leaving out
// the items whose Seq live holds (sorted; the screen searches those
// itself). When prev is the finished scan of a query that m's extends,
// over the same text, only prev's matches are looked at again.
func (a *Archive) Scan(m Matcher, live []uint64, prev *Scan) *Scan {
	s := &Scan{m: m, live: live, gen: a.Generation(), grams: queryGrams(m.Query())}
	if prev != nil && prev.Done() && prev.gen == s.gen && !prev.filtered && m.Narrows(prev.m) {
		s.shelf, s.within = prev.shelf, prev.found
		if s.within == nil {
			s.within = []place{}
		}
		return s
	}
	s.shelf = a.Shelf()
	return s
}

// KeepSteps leaves out the tool calls of steps not in steps (sorted), the
// steps a filter keeps. Call it before the scan is handed to a goroutine.
func (s *Scan) KeepSteps(steps []int) { s.steps, s.filtered = steps, true }

// Generation changes whenever the archive takes text.
func (a *Archive) Generation() int {
	if a == nil {
		return 0
	}
	return a.count
}

// Done reports whether the scan has read every block (or place).
func (s *Scan) Done() bool {
	if s.within != nil {
		return s.next >= len(s.within)
	}
	return s.next >= len(s.shelf.blocks)
}

// First is the match of least Seq with lo ≤ Seq < hi, and whether there
// is one. Blocks whose items all lie outside the range, or after a match
// already found, are not read.
func (s *Scan) First(lo, hi uint64) (Hit, bool) {
	best, found := Hit{}, false
	var buf []byte
	for bi, b := range s.shelf.blocks {
		if b.maxSeq < lo || b.minSeq >= hi || found && b.minSeq >= best.Seq || !b.grams.mayHold(s.grams) {
			continue
		}
		s.eachMatch(bi, &buf, false, func(e entry) bool {
			if e.seq >= lo && e.seq < hi && (!found || e.seq < best.Seq) {
				best, found = Hit{Seq: e.seq, Step: int(e.step)}, true
			}
			return true
		})
	}
	return best, found
}

// Last is the match of greatest Seq with lo ≤ Seq < hi, and whether there
// is one, reading blocks as First does, from the newest.
func (s *Scan) Last(lo, hi uint64) (Hit, bool) {
	best, found := Hit{}, false
	var buf []byte
	for bi := len(s.shelf.blocks) - 1; bi >= 0; bi-- {
		b := s.shelf.blocks[bi]
		if b.maxSeq < lo || b.minSeq >= hi || found && b.maxSeq <= best.Seq || !b.grams.mayHold(s.grams) {
			continue
		}
		s.eachMatch(bi, &buf, false, func(e entry) bool {
			if e.seq >= lo && e.seq < hi && (!found || e.seq > best.Seq) {
				best, found = Hit{Seq: e.seq, Step: int(e.step)}, true
			}
			return true
		})
	}
	return best, found
}

// Next reads blocks until about budget bytes of text were read, or all
// were, and returns the matches found in them, in the order of the shelf.
func (s *Scan) Next(budget int) []Hit {
	var hits []Hit
	read := 0
	for !s.Done() && read < budget {
		bi := s.next
		if s.within != nil {
			bi = int(s.within[s.next].block)
		}
		read += s.eachMatch(bi, &s.buf, true, func(e entry) bool {
			hits = append(hits, Hit{Seq: e.seq, Step: int(e.step)})
			return true
		})
		if s.within != nil {
			for s.next < len(s.within) && int(s.within[s.next].block) == bi {
				s.next++
			}
		} else {
			s.next++
		}
	}
	return hits
}

// eachMatch calls yield with each entry of block bi that matches (of
// within, when narrowing) and is not live, in order, until yield returns
// false, reading it back into buf; record keeps the places found, for a
// count. It returns the bytes of text read. It changes nothing but buf
// and, recording, the places found, so First may run beside Next.
func (s *Scan) eachMatch(bi int, buf *[]byte, record bool, yield func(entry) bool) int {
	b := s.shelf.blocks[bi]
	if !b.grams.mayHold(s.grams) {
		return 0
	}
	text := b.text
	if text == nil {
		var err error
		if *buf, err = s2.Decode((*buf)[:cap(*buf)], b.packed); err != nil {
			return len(b.packed) // not seen: the archive wrote the block itself
		}
		text = *buf
	}
	match := func(ei int) bool {
		e := b.entries[ei]
		if _, live := slices.BinarySearch(s.live, e.seq); live {
			return true
		}
		if _, kept := slices.BinarySearch(s.steps, int(e.step)); s.filtered && e.step >= 0 && !kept {
			return true
		}
		if record {
			s.found = append(s.found, place{int32(bi), int32(ei)})
		}
		return yield(e)
	}
	if s.within != nil {
		for _, p := range s.within[s.firstWithin(bi):] {
			if int(p.block) != bi {
				break
			}
			start := uint32(0)
			if p.entry > 0 {
				start = b.entries[p.entry-1].end
			}
			if s.m.In(asString(text[start:b.entries[p.entry].end])) && !match(int(p.entry)) {
				break
			}
		}
		return len(text)
	}
	ei := 0
	for off := 0; off < len(text); {
		i := s.m.Index(asString(text[off:]))
		if i < 0 {
			break
		}
		at := uint32(off + i)
		for ei < len(b.entries) && b.entries[ei].end <= at {
			ei++
		}
		if ei == len(b.entries) || !match(ei) {
			break
		}
		off = int(b.entries[ei].end)
		ei++
	}
	return len(text)
}

// firstWithin is the index in within of block bi's first place.
func (s *Scan) firstWithin(bi int) int {
	i, _ := slices.BinarySearchFunc(s.within, int32(bi), func(p place, b int32) int { return int(p.block - b) })
	return i
}

// asString is text as a string without a copy, for the matcher; the
// string is not kept past the call.
func asString(text []byte) string {
	if len(text) == 0 {
		return ""
	}
	return unsafe.String(&text[0], len(text))
}
