package persist

import (
	"cmp"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// SortedSet is a set of ordered values that is never changed in place:
// With and Without return a new set, so any number of holders share one.
//
// The values are in sorted runs, each less than half as long as the one
// before it, and With adds a run instead of copying all there is: a fold
// that adds a few values before each of its checkpoints keeps them all in
// a few shared runs, not one whole copy per checkpoint (which grew with
// the square of the log). A lookup searches each run; there are at most
// about log₂ of the values' count.
//
// The zero SortedSet is empty. In JSON it is one sorted array (or null).
type SortedSet[T cmp.Ordered] struct {
	runs [][]T
}

// With returns s and xs.
func (s SortedSet[T]) With(xs []T) SortedSet[T] {
	if len(xs) == 0 {
		return s
	}
	run := slices.Clone(xs)
	slices.Sort(run)
	run = slices.Clip(slices.Compact(run))
	// Clipped, so that appending to the new list of runs never writes
	// into s's.
	runs := append(slices.Clip(s.runs), run)
	for n := len(runs); n > 1 && 2*len(runs[n-1]) >= len(runs[n-2]); n = len(runs) {
		runs = append(runs[:n-2], merge(runs[n-2], runs[n-1]))
	}
	return SortedSet[T]{runs: runs}
}

// merge is a and b, two sorted runs, as one new run without repeats.
func merge[T cmp.Ordered](a, b []T) []T {
	out := make([]T, 0, len(a)+len(b))
	for i, j := 0, 0; i < len(a) || j < len(b); {
		var x T
		switch {
		case j >= len(b) || i < len(a) && a[i] < b[j]:
			x, i = a[i], i+1
		case i >= len(a) || b[j] < a[i]:
			x, j = b[j], j+1
		default:
			x, i, j = a[i], i+1, j+1
		}
		if n := len(out); n == 0 || out[n-1] != x {
			out = append(out, x)
		}
	}
	return slices.Clip(out)
}

// Empty reports whether s holds nothing.
func (s SortedSet[T]) Empty() bool { return len(s.runs) == 0 }

// Has reports whether s holds x.
func (s SortedSet[T]) Has(x T) bool {
	for _, r := range s.runs {
		if _, ok := slices.BinarySearch(r, x); ok {
			return true
		}
	}
	return false
}

// Without returns s without x.
func (s SortedSet[T]) Without(x T) SortedSet[T] {
	var runs [][]T
	for i, r := range s.runs {
		j, ok := slices.BinarySearch(r, x)
		if !ok {
			continue
		}
		if runs == nil {
			runs = slices.Clone(s.runs)
		}
		runs[i] = slices.Concat(r[:j], r[j+1:])
	}
	if runs == nil {
		return s
	}
	return SortedSet[T]{runs: slices.DeleteFunc(runs, func(r []T) bool { return len(r) == 0 })}
}

// Sorted returns every value, in order, once each: shared with s when s
// is one run, so not to be changed.
func (s SortedSet[T]) Sorted() []T {
	switch len(s.runs) {
	case 0:
		return nil
	case 1:
		return s.runs[0]
	}
	out := s.runs[0]
	for _, r := range s.runs[1:] {
		out = merge(out, r)
	}
	return out
}

// MarshalJSONTo writes the set as one sorted JSON array (or null).
func (s SortedSet[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, s.Sorted())
}

// UnmarshalJSONFrom reads a set MarshalJSONTo wrote.
func (s *SortedSet[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var xs []T
	if err := json.UnmarshalDecode(dec, &xs); err != nil {
		return err
	}
	*s = SortedSet[T]{}.With(xs)
	return nil
}
