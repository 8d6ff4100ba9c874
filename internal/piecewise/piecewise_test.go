package piecewise

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// sizes are lengths around a piece, where the copies change from one go
// to several.
var sizes = []int{0, 1, Piece - 1, Piece, Piece + 1, 3*Piece + 7}

func filled(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}

// TestLikeTheBuiltins checks every function against the copy it stands
// for, for every pair of sizes and spare room from none to more than needed.
func TestLikeTheBuiltins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		src := filled(rng, n)
		if got := Clone(src); !bytes.Equal(got, src) || got == nil || (n > 0 && &got[0] == &src[0]) {
			t.Errorf("Clone of %d bytes: not an equal copy", n)
		}
		if got := String(src); got != string(src) {
			t.Errorf("String of %d bytes differs", n)
		}
		for _, m := range sizes {
			for _, room := range []int{0, 1, n, n + Piece} {
				dst := append(make([]byte, 0, m+room), filled(rng, m)...)
				want := append(bytes.Clone(dst), src...)
				if got := Append(bytes.Clone(dst), src); !bytes.Equal(got, want) {
					t.Errorf("Append %d to %d (room %d) differs", n, m, room)
				}
				parts := [][]byte{src[:n/3], src[n/3 : n/2], src[n/2:]}
				if got := Join(dst, parts, n); !bytes.Equal(got, want) {
					t.Errorf("Join %d to %d (room %d) differs", n, m, room)
				}
			}
			var b strings.Builder
			b.Grow(m)
			b.Write(filled(rng, m))
			want := b.String() + string(src)
			g := Grow(&b, n)
			if g.Cap()-g.Len() < n {
				t.Errorf("Grow(%d) over %d bytes left %d of room", n, m, g.Cap()-g.Len())
			}
			WriteString(g, string(src))
			if g.String() != want {
				t.Errorf("Grow then WriteString of %d after %d differs", n, m)
			}
		}
	}
	for _, n := range sizes {
		for _, drop := range []int{0, 1, Piece - 1, Piece, Piece + 1, n} {
			if drop > n {
				continue
			}
			b := filled(rng, n)
			want := append([]byte{}, b[drop:]...)
			if got := Shift(b, drop); !bytes.Equal(got, want) || (len(got) > 0 && &got[0] != &b[0]) {
				t.Errorf("Shift(%d bytes, %d) differs or moved", n, drop)
			}
		}
	}
	if Clone(nil) != nil {
		t.Error("Clone(nil) is not nil")
	}
}

// TestAppendKeepsTheOriginal checks that growing leaves the slice that
// was grown as it was, as append does.
func TestAppendKeepsTheOriginal(t *testing.T) {
	dst := bytes.Repeat([]byte{'a'}, Piece+3)
	keep := bytes.Clone(dst)
	got := Append(dst, bytes.Repeat([]byte{'b'}, 2*Piece))
	got[0] = 'x'
	if !bytes.Equal(dst, keep) {
		t.Error("Append wrote into the slice it grew")
	}
}
