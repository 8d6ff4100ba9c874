package persist

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"
)

// Values shared with another list stay each list's own as both append to
// them, full blocks are shared rather than copied, and JSON gives the same
// values back.
func TestListShared(t *testing.T) {
	var l List[uint16]
	for i := range defaultBlock + 904 {
		l.Append(uint16(i % 7))
	}
	s := l.Share()
	for range 10 {
		l.Append(100)
		s.Append(200)
	}
	for i := range defaultBlock + 904 {
		if l.At(i) != uint16(i%7) || s.At(i) != uint16(i%7) {
			t.Fatalf("value %d: %d and %d, want %d", i, l.At(i), s.At(i), i%7)
		}
	}
	for i := defaultBlock + 904; i < l.Len(); i++ {
		if l.At(i) != 100 || s.At(i) != 200 {
			t.Fatalf("value %d added after sharing: %d and %d, want 100 and 200", i, l.At(i), s.At(i))
		}
	}
	if &l.blocks[0][0] != &s.blocks[0][0] {
		t.Error("a full block was copied")
	}
	if l.Blocks() != 2 {
		t.Errorf("%d values in %d blocks, want 2", l.Len(), l.Blocks())
	}
	if n := s.Unshared(l); n != 1 {
		t.Errorf("%d blocks of the share are not the list's, want the last one", n)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back List[uint16]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Slice(), l.Slice()) {
		t.Fatalf("%d values back from JSON, want the %d there were", back.Len(), l.Len())
	}
}

// ListOf shares the blocks of the list before it that hold the same
// values, and copies the others.
func TestListOf(t *testing.T) {
	a, b, c := new(int), new(int), new(int)
	base := []*int{a, a, b, b, c, c, a}
	for _, x := range []struct {
		name   string
		change func([]*int) []*int
		fresh  int // blocks not shared with the list before
	}{
		{"the same", func(s []*int) []*int { return s }, 0},
		{"appended to", func(s []*int) []*int { return append(s, b) }, 1},         // the last block grew
		{"appended a block", func(s []*int) []*int { return append(s, b, c) }, 2}, // and one more
		{"one replaced", func(s []*int) []*int { s[2] = c; return s }, 1},
		{"cut shorter", func(s []*int) []*int { return s[:4] }, 0},
		{"emptied", func(s []*int) []*int { return nil }, 0},
	} {
		t.Run(x.name, func(t *testing.T) {
			prev := ListOf(base, List[*int]{}, 2)
			s := x.change(slices.Clone(base))
			l := ListOf(s, prev, 2)
			if !slices.Equal(l.Slice(), s) {
				t.Fatalf("holds %v, want %v", l.Slice(), s)
			}
			if n := l.Unshared(prev); n != x.fresh {
				t.Errorf("%d new blocks, want %d", n, x.fresh)
			}
			if !slices.Equal(prev.Slice(), base) {
				t.Error("the list before changed")
			}
		})
	}
	// Blocks of another length are not shared, however the values agree.
	prev := ListOf(base, List[*int]{}, 3)
	if n := ListOf(base, prev, 2).Unshared(prev); n != 4 {
		t.Errorf("%d of 4 blocks are new with another block length", n)
	}
}

// The persistence property: lists appended to, shared, and rebuilt with
// ListOf at random read as plain slices, and every list taken keeps
// reading what it held however the others are written after.
func TestListShares(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 5))
			l := NewList[int](8)
			var want []int
			type kept struct {
				l    List[int]
				want []int
			}
			var taken []kept
			for step := range 800 {
				switch op := rng.IntN(100); {
				case op < 80:
					l.Append(step)
					want = append(want, step)
				case op < 90:
					taken = keep(rng, taken, kept{l: l.Share(), want: slices.Clone(want)})
				case op < 95:
					// A list rebuilt with a value replaced, from the one
					// before, which is kept and may append on its own.
					if len(want) > 0 {
						taken = keep(rng, taken, kept{l: l, want: slices.Clone(want)})
						want[rng.IntN(len(want))] = -step
						l = ListOf(want, l, 8)
					}
				default: // a list taken before appends on its own
					if len(taken) > 0 {
						k := &taken[rng.IntN(len(taken))]
						k.l.Append(-step)
						k.want = append(k.want, -step)
					}
				}
				checkList(t, fmt.Sprint("step ", step), &l, want)
				for i := range taken {
					checkList(t, fmt.Sprint("step ", step, ", list ", i), &taken[i].l, taken[i].want)
				}
			}
		})
	}
}

// checkList fails unless l reads as want.
func checkList(t *testing.T, at string, l *List[int], want []int) {
	t.Helper()
	if l.Len() != len(want) {
		t.Fatalf("%s: %d values, want %d", at, l.Len(), len(want))
	}
	for i, x := range l.All() {
		if x != want[i] || l.At(i) != want[i] {
			t.Fatalf("%s: value %d is %d, want %d", at, i, x, want[i])
		}
	}
}
