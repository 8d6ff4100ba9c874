package persist

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"
)

// What With and Without make of a few sets.
func TestSortedSetChanges(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() SortedSet[int]
		want []int
	}{
		{"empty", func() SortedSet[int] { return SortedSet[int]{} }, nil},
		{"nothing added", func() SortedSet[int] { return SortedSet[int]{}.With(nil) }, nil},
		{"sorted, once each", func() SortedSet[int] { return SortedSet[int]{}.With([]int{3, 1, 3, 2}) }, []int{1, 2, 3}},
		{"runs merged", func() SortedSet[int] {
			return SortedSet[int]{}.With([]int{5, 1}).With([]int{4, 1}).With([]int{9})
		}, []int{1, 4, 5, 9}},
		{"without", func() SortedSet[int] { return SortedSet[int]{}.With([]int{1, 2, 3}).Without(2).Without(7) }, []int{1, 3}},
		{"without the last", func() SortedSet[int] { return SortedSet[int]{}.With([]int{1}).Without(1) }, nil},
	} {
		s := c.make()
		if got := s.Sorted(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if s.Empty() != (len(c.want) == 0) {
			t.Errorf("%s: Empty() = %v", c.name, s.Empty())
		}
		for x := range 10 {
			if s.Has(x) != slices.Contains(c.want, x) {
				t.Errorf("%s: Has(%d) = %v", c.name, x, s.Has(x))
			}
		}
	}
}

// The persistence property: values added and removed at random agree with
// a plain set after every change (Has, Sorted, the JSON read back), the
// runs stay few, and a change never alters a set taken before it.
func TestSortedSetLikeASet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var s SortedSet[uint64]
	set := map[uint64]bool{}
	type seen struct {
		s      SortedSet[uint64]
		sorted []uint64
	}
	var earlier []seen
	for round := range 400 {
		if rng.IntN(4) == 0 && len(set) > 0 {
			x := rng.Uint64N(3000)
			s = s.Without(x)
			delete(set, x)
		} else {
			var xs []uint64
			for range rng.IntN(60) {
				x := rng.Uint64N(3000)
				xs = append(xs, x)
				set[x] = true
			}
			s = s.With(xs)
		}
		want := make([]uint64, 0, len(set))
		for x := range set {
			want = append(want, x)
		}
		slices.Sort(want)
		if got := s.Sorted(); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("round %d: %d values, want %d", round, len(got), len(want))
		}
		for range 20 {
			x := rng.Uint64N(3000)
			if s.Has(x) != set[x] {
				t.Fatalf("round %d: Has(%d) = %v", round, x, s.Has(x))
			}
		}
		if most := bits.Len(uint(len(set))) + 1; len(s.runs) > most {
			t.Fatalf("round %d: %d runs for %d values, want at most %d", round, len(s.runs), len(set), most)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back SortedSet[uint64]
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Sorted(), s.Sorted()) {
			t.Fatalf("round %d: JSON round trip changed the values", round)
		}
		earlier = append(earlier, seen{s, slices.Clone(s.Sorted())})
	}
	for i, e := range earlier {
		if !slices.Equal(e.s.Sorted(), e.sorted) {
			t.Fatalf("value %d changed after it was taken", i)
		}
	}
}
