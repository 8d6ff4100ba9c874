// Package piecewise copies big byte slices and strings a piece at a time.
//
// Go copies memory with one runtime call that cannot be interrupted. A
// copy of tens of megabytes (one huge event: a whole file read back, a
// screenshot, a model's long answer) then holds up the garbage collector,
// which waits to stop the copying goroutine and meanwhile spins on the
// other core and signals the copy over and over. The functions here make
// the same copies in pieces, and let the scheduler stop the goroutine
// between them: the result is the same, but a huge event no longer slows
// everything else down.
package piecewise

import (
	"runtime"
	"strings"
)

// Piece is the most bytes copied in one go: a few hundred microseconds of
// copying even where the pages have to be faulted in.
const Piece = 256 << 10

// Append is append(dst, src...), copying src a piece at a time and growing
// dst without one big copy of what it held.
func Append(dst, src []byte) []byte {
	if len(src) <= Piece && len(dst)+len(src) <= cap(dst) {
		return append(dst, src...)
	}
	if need := len(dst) + len(src); need > cap(dst) {
		grown := make([]byte, len(dst), max(need, 2*cap(dst)))
		copyPieces(grown, dst)
		dst = grown
	}
	n := len(dst)
	dst = dst[:n+len(src)]
	copyPieces(dst[n:], src)
	return dst
}

// Join appends parts, size bytes in all, to dst: growing dst once, and
// pausing after every Piece bytes.
func Join(dst []byte, parts [][]byte, size int) []byte {
	if len(dst)+size > cap(dst) {
		grown := make([]byte, len(dst), len(dst)+size)
		copyPieces(grown, dst)
		dst = grown
	}
	since := 0
	for _, p := range parts {
		for len(p) > 0 {
			n := min(len(p), Piece-since)
			dst = append(dst, p[:n]...)
			p = p[n:]
			if since += n; since == Piece {
				since = 0
				pause()
			}
		}
	}
	return dst
}

// Shift drops the first n bytes of b, moving the rest to its front:
// append(b[:0], b[n:]...), a piece at a time.
func Shift(b []byte, n int) []byte {
	rest := len(b) - n
	copyPieces(b[:rest], b[n:]) // front to back: no piece overwrites one not yet moved
	return b[:rest]
}

// Clone is bytes.Clone, a piece at a time: a copy with no spare room, and
// nil for nil.
func Clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	if len(b) <= Piece {
		return append([]byte{}, b...)
	}
	out := make([]byte, len(b))
	copyPieces(out, b)
	return out
}

// String is string(b), a piece at a time.
func String(b []byte) string {
	if len(b) <= Piece {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for len(b) > 0 {
		n := min(len(b), Piece)
		sb.Write(b[:n])
		b = b[n:]
		pause()
	}
	return sb.String()
}

// WriteString writes s to b a piece at a time. Growing b copies what it
// holds in one go, so a caller with big texts grows b first (Grow).
func WriteString(b *strings.Builder, s string) {
	for len(s) > Piece {
		b.WriteString(s[:Piece])
		s = s[Piece:]
		pause()
	}
	b.WriteString(s)
}

// Grow returns a builder holding what b holds with room for n more bytes:
// b itself when it has the room, else a new one, filled a piece at a time.
func Grow(b *strings.Builder, n int) *strings.Builder {
	if b.Cap()-b.Len() >= n {
		return b
	}
	nb := &strings.Builder{}
	nb.Grow(max(2*b.Cap(), b.Len()+n))
	WriteString(nb, b.String())
	return nb
}

// copyPieces copies src into dst, which is at least as long.
func copyPieces(dst, src []byte) {
	for len(src) > 0 {
		n := copy(dst[:min(len(src), Piece)], src)
		dst, src = dst[n:], src[n:]
		pause()
	}
}

// pause lets the scheduler stop this goroutine between pieces, as the
// garbage collector asks it to. It cannot stop it during a copy, and the
// signal that could stop the loop around the copies nearly always arrives
// during one.
func pause() { runtime.Gosched() }
