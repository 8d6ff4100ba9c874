package fold

import "github.com/agentwatch/agentwatch/fold/persist"

// index is a lookup the fold derives from its lists (an item by key, a
// step or a message by id), kept in a persist.Map so that checkpoints
// share it instead of copying or rebuilding it. A fold restored from an
// export has none until its first use builds it (reindex).
type index[K comparable, V any] struct {
	m     persist.Map[K, V]
	built bool
}

// ready reports whether the index was built.
func (x *index[K, V]) ready() bool { return x.built }

// fresh starts an empty index with room for n entries.
func (x *index[K, V]) fresh(n int) {
	x.m, x.built = persist.NewMap[K, V](n), true
}

// get returns k's entry, the zero V when there is none.
func (x *index[K, V]) get(k K) V {
	v, _ := x.m.Get(k)
	return v
}

func (x *index[K, V]) has(k K) bool { return x.m.Has(k) }

func (x *index[K, V]) set(k K, v V) { x.m.Set(k, v) }

// setNew sets k unless it already has an entry.
func (x *index[K, V]) setNew(k K, v V) { x.m.SetNew(k, v) }

// share returns what the index holds now, for a checkpoint to keep; the
// index goes on writing a layer of its own.
func (x *index[K, V]) share() persist.Map[K, V] { return x.m.Share() }

// indexOf is a built index that reads m, which a checkpoint keeps.
func indexOf[K comparable, V any](m persist.Map[K, V]) index[K, V] {
	return index[K, V]{m: m.Share(), built: true}
}
