// Package splits picks the points at which a law that cuts a log in two
// (fold the first k records, checkpoint or shed or seek, fold the rest) is
// checked.
//
// Such a law costs the whole log at each split point, so checking every
// point costs the square of the log: nothing on a peer sample of a few
// dozen records, but the 840 records of the demo made it a third of the
// test suite's time. A short log is checked at every point; a longer one
// where its fold changes shape (the marks a law passes: the first record of
// each kind, a list growing into a new chunk, a checkpoint) and one record
// either side of each, and at a stride between, so that what lies between
// the marks is cut too.
package splits

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// Every split point of a log up to fullAll records long is checked, and
// a longer one's every fullStride-th (a prime, so that the points do not
// keep falling on the same place in a log that repeats itself). A short
// run (go test -short, the quick command the README gives) checks every
// point up to shortAll records and every shortStride-th: the marks are
// checked either way.
const (
	fullAll, fullStride   = 300, 17
	shortAll, shortStride = 100, 37
)

// All is the longest log checked at every split point: every peer sample
// but the demo, and every ACP recording (in a short run, most of them).
func All() int {
	if testing.Short() {
		return shortAll
	}
	return fullAll
}

// Stride is the distance between the split points of a longer log that
// no mark asked for.
func Stride() int {
	if testing.Short() {
		return shortStride
	}
	return fullStride
}

// Points returns the split points of a log of n records, in order: every k
// from 0 to n when n ≤ All(); else 0, 1, n−1, n, every Stride()-th, and
// each mark with the points on either side of it.
func Points(n int, marks ...int) []int {
	if n <= All() {
		out := make([]int, n+1)
		for k := range out {
			out[k] = k
		}
		return out
	}
	out := []int{0, 1, n - 1, n}
	for k, stride := Stride(), Stride(); k < n; k += stride {
		out = append(out, k)
	}
	for _, m := range marks {
		for k := m - 1; k <= m+1; k++ {
			if k >= 0 && k <= n {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Firsts marks, for each kind of event in recs, the split point just after
// its first record: the fold there holds what that kind opens (a message
// being streamed, a call whose arguments are half sent) or has just
// closed, and Points adds the point just before it.
func Firsts(recs []model.Record) []int {
	seen := map[string]bool{}
	var out []int
	for i, r := range recs {
		if kind := Kind(r); !seen[kind] {
			seen[kind] = true
			out = append(out, i+1)
		}
	}
	return out
}

// Kind is what Firsts tells records apart by: the event's type, and its Go
// type, which tells an event that could not be read from one that was.
func Kind(r model.Record) string {
	return fmt.Sprintf("%T %s", r.Event, r.Event.EventType())
}
