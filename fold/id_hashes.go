package fold

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/persist"
)

// idHashes are ids whose tombstones Trim forgot, as 64-bit FNV-1a hashes
// (hashID): enough to know an id again, for eight bytes. They are
// a persist.SortedSet, never changed in place, so checkpoints share them
// and forgetting adds a run of hashes instead of copying all there are. In
// the exported state they are one sorted array.
type idHashes struct {
	set persist.SortedSet[uint64]
}

// has reports whether h holds id.
func (h idHashes) has(id string) bool {
	// Most folds forget nothing: no need to hash.
	return !h.set.Empty() && h.set.Has(hashID(id))
}

// empty reports whether h holds nothing.
func (h idHashes) empty() bool { return h.set.Empty() }

// with returns h and the hashes hs.
func (h idHashes) with(hs []uint64) idHashes { return idHashes{h.set.With(hs)} }

// without returns h without id.
func (h idHashes) without(id string) idHashes { return idHashes{h.set.Without(hashID(id))} }

// MarshalJSONTo writes the hashes as one sorted JSON array (or null).
func (h idHashes) MarshalJSONTo(enc *jsontext.Encoder) error { return h.set.MarshalJSONTo(enc) }

// UnmarshalJSONFrom reads hashes MarshalJSONTo wrote.
func (h *idHashes) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return h.set.UnmarshalJSONFrom(dec)
}
