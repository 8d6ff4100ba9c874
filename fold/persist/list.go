package persist

import (
	"iter"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// List is a list kept in blocks of a fixed length (the last may be
// shorter). A full block is never written again, so lists share them: a
// share, or a list made with ListOf, costs the blocks that changed and a
// slice header per block, not a copy of every value. A fold that kept its
// step sketches in one slice copied whole made the checkpoints of a long
// log hold them once each.
//
// The zero List is empty, with blocks of 4,096 values. In JSON a List is
// one array.
type List[T any] struct {
	blocks [][]T
	n      int
	// size is the length of a block; 0 is defaultBlock.
	size int
}

// defaultBlock is the block length of a List made without one.
const defaultBlock = 4096

// NewList returns an empty list with blocks of size values.
func NewList[T any](size int) List[T] { return List[T]{size: size} }

// ListOf returns a list of the values of s in blocks of size, sharing
// every block of prev that holds the same values at the same places. A
// list that changes little between two calls (appended to, a few values
// replaced) so costs the blocks that changed.
func ListOf[T comparable](s []T, prev List[T], size int) List[T] {
	out := List[T]{n: len(s), size: size}
	size = out.blockSize()
	reuse := prev.blockSize() == size
	out.blocks = make([][]T, 0, (len(s)+size-1)/size)
	for b := 0; b*size < len(s); b++ {
		seg := s[b*size : min(len(s), (b+1)*size)]
		// Every block clipped, so that an Append copies it before it
		// writes: prev may append to one it shares, and the list may be
		// ListOf's caller's.
		if reuse && b < len(prev.blocks) && slices.Equal(prev.blocks[b], seg) {
			out.blocks = append(out.blocks, slices.Clip(prev.blocks[b]))
			continue
		}
		out.blocks = append(out.blocks, slices.Clip(slices.Clone(seg)))
	}
	return out
}

func (l List[T]) blockSize() int {
	if l.size == 0 {
		return defaultBlock
	}
	return l.size
}

// Len is how many values the list holds.
func (l List[T]) Len() int { return l.n }

// At returns value i.
func (l List[T]) At(i int) T {
	size := l.blockSize()
	return l.blocks[i/size][i%size]
}

// Append adds x at the end.
func (l *List[T]) Append(x T) {
	size := l.blockSize()
	k := len(l.blocks) - 1
	switch {
	case k < 0 || len(l.blocks[k]) == size:
		l.blocks = append(l.blocks, make([]T, 0, size))
		k++
	case len(l.blocks[k]) == cap(l.blocks[k]): // may be shared: Share and ListOf clip
		l.blocks[k] = append(make([]T, 0, size), l.blocks[k]...)
	}
	l.blocks[k] = append(l.blocks[k], x)
	l.n++
}

// Share returns a list that reads what l holds now: the same blocks in a
// slice of its own, the last one clipped so that either list copies it
// before it appends.
func (l *List[T]) Share() List[T] {
	blocks := slices.Clone(l.blocks)
	if k := len(blocks) - 1; k >= 0 && len(blocks[k]) < cap(blocks[k]) {
		blocks[k] = slices.Clip(blocks[k])
		l.blocks[k] = slices.Clip(l.blocks[k])
	}
	return List[T]{blocks: blocks, n: l.n, size: l.size}
}

// All yields every value with its index, in order.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for _, b := range l.blocks {
			for _, x := range b {
				if !yield(i, x) {
					return
				}
				i++
			}
		}
	}
}

// Slice returns the values in a new slice the caller owns (nil for none).
func (l List[T]) Slice() []T {
	if l.n == 0 {
		return nil
	}
	out := make([]T, 0, l.n)
	for _, b := range l.blocks {
		out = append(out, b...)
	}
	return out
}

// Blocks is how many blocks the list is kept in.
func (l List[T]) Blocks() int { return len(l.blocks) }

// Unshared counts the blocks of l that prev does not hold at the same
// place: what l cost beyond prev.
func (l List[T]) Unshared(prev List[T]) int {
	n := 0
	for i, b := range l.blocks {
		if i >= len(prev.blocks) || len(prev.blocks[i]) == 0 || &prev.blocks[i][0] != &b[0] {
			n++
		}
	}
	return n
}

// MarshalJSONTo writes the list as one JSON array.
func (l List[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	flat := l.Slice()
	if flat == nil {
		flat = []T{}
	}
	return json.MarshalEncode(enc, flat)
}

// UnmarshalJSONFrom reads a list MarshalJSONTo wrote, in blocks of l's
// length.
func (l *List[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var flat []T
	if err := json.UnmarshalDecode(dec, &flat); err != nil {
		return err
	}
	*l = List[T]{size: l.size}
	for _, x := range flat {
		l.Append(x)
	}
	return nil
}
