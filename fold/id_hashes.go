package fold

import (
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// idHashes are ids Forget dropped the tombstones of, as 64-bit FNV-1a
// hashes: enough to know an id again, for eight bytes. It is never changed
// in place, so checkpoints share it.
//
// The hashes are in sorted runs, each less than half as long as the one
// before it, and a Forget adds a run instead of copying all there is: a
// timeline that forgets before each of its checkpoints then keeps every
// hash in a few shared runs, not one whole copy per checkpoint (which
// grew with the square of the log). A lookup searches each run; there are
// at most about log₂ of the hashes' count.
type idHashes struct {
	runs [][]uint64
}

// with returns h and hs.
func (h idHashes) with(hs []uint64) idHashes {
	if len(hs) == 0 {
		return h
	}
	run := slices.Clone(hs)
	slices.Sort(run)
	run = slices.Clip(slices.Compact(run))
	runs := append(slices.Clip(h.runs), run)
	for n := len(runs); n > 1 && 2*len(runs[n-1]) >= len(runs[n-2]); n = len(runs) {
		runs = append(runs[:n-2], mergeHashes(runs[n-2], runs[n-1]))
	}
	return idHashes{runs: runs}
}

// mergeHashes is a and b, two sorted runs, as one without repeats.
func mergeHashes(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	for i, j := 0, 0; i < len(a) || j < len(b); {
		var x uint64
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

// empty reports whether h holds nothing.
func (h idHashes) empty() bool { return len(h.runs) == 0 }

// has reports whether h holds id.
func (h idHashes) has(id string) bool {
	if len(h.runs) == 0 {
		return false
	}
	x := hashID(id)
	for _, r := range h.runs {
		if _, ok := slices.BinarySearch(r, x); ok {
			return true
		}
	}
	return false
}

// without returns h without id.
func (h idHashes) without(id string) idHashes {
	x := hashID(id)
	var runs [][]uint64
	for i, r := range h.runs {
		j, ok := slices.BinarySearch(r, x)
		if !ok {
			continue
		}
		if runs == nil {
			runs = slices.Clone(h.runs)
		}
		runs[i] = slices.Concat(r[:j], r[j+1:])
	}
	if runs == nil {
		return h
	}
	return idHashes{runs: slices.DeleteFunc(runs, func(r []uint64) bool { return len(r) == 0 })}
}

// flat is every hash, in order, without repeats.
func (h idHashes) flat() []uint64 {
	switch len(h.runs) {
	case 0:
		return nil
	case 1:
		return h.runs[0]
	}
	out := h.runs[0]
	for _, r := range h.runs[1:] {
		out = mergeHashes(out, r)
	}
	return out
}

// MarshalJSONTo writes the hashes as one sorted JSON array (or null).
func (h idHashes) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, h.flat())
}

// UnmarshalJSONFrom reads hashes MarshalJSONTo wrote.
func (h *idHashes) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var hs []uint64
	if err := json.UnmarshalDecode(dec, &hs); err != nil {
		return err
	}
	*h = idHashes{}.with(hs)
	return nil
}
