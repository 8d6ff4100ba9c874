package tui

// This file keeps the search's matches, in the order of the items' Seq
// (that of the transcript), as they come from the items kept, the
// archive's first match and its count.

import (
	"slices"

	"github.com/agentwatch/agentwatch/tui/search"
)

// curHit is the match gone to (the zero Hit for none).
func (s *searchState) curHit() search.Hit {
	if s.cur < 0 || s.cur >= len(s.hits) {
		return search.Hit{}
	}
	return s.hits[s.cur]
}

// indexOf is the index of h among the hits by its Seq, or -1.
func (s *searchState) indexOf(h search.Hit) int {
	i, ok := slices.BinarySearchFunc(s.hits, h.Seq, func(x search.Hit, seq uint64) int {
		return cmpSeq(x.Seq, seq)
	})
	if !ok {
		return -1
	}
	return i
}

func bySeq(a, b search.Hit) int { return cmpSeq(a.Seq, b.Seq) }

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mergeHits merges more into hits, both in Seq order, once each.
func mergeHits(hits, more []search.Hit) []search.Hit {
	if len(more) == 0 {
		return hits
	}
	out := make([]search.Hit, 0, len(hits)+len(more))
	i, j := 0, 0
	for i < len(hits) || j < len(more) {
		switch {
		case j >= len(more) || i < len(hits) && hits[i].Seq < more[j].Seq:
			out = append(out, hits[i])
			i++
		case i < len(hits) && hits[i].Seq == more[j].Seq:
			out = append(out, hits[i])
			i++
			j++
		default:
			out = append(out, more[j])
			j++
		}
	}
	return out
}
