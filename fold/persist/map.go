package persist

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Map is a map whose lookups fall through to frozen layers that are never
// written again, newest first. Share freezes the map's top layer and hands
// out the layers; the map and the share each write a top layer of their
// own. So neither sharing nor reading a share copies or rebuilds the map
// (rebuilding the fold's indexes took most of a seek's time on big logs).
//
// Frozen layers are merged like an LSM tree's levels — a new layer at
// least as big as the one below it is merged with it — so a lookup reads
// at most a logarithmic number of maps and each entry is copied a
// logarithmic number of times.
//
// The zero Map is empty and ready to use. In JSON a Map is one object.
type Map[K comparable, V any] struct {
	top    map[K]V
	frozen []map[K]V // newest first; shared, never written
}

// NewMap returns an empty map with room for n entries in its top layer.
func NewMap[K comparable, V any](n int) Map[K, V] {
	return Map[K, V]{top: make(map[K]V, n)}
}

// Get returns k's value, and whether k has one.
func (m *Map[K, V]) Get(k K) (V, bool) {
	if v, ok := m.top[k]; ok {
		return v, true
	}
	for _, l := range m.frozen {
		if v, ok := l[k]; ok {
			return v, true
		}
	}
	var zero V
	return zero, false
}

// Has reports whether k has a value.
func (m *Map[K, V]) Has(k K) bool {
	_, ok := m.Get(k)
	return ok
}

// Set makes v k's value.
func (m *Map[K, V]) Set(k K, v V) {
	if m.top == nil {
		m.top = map[K]V{}
	}
	m.top[k] = v
}

// SetNew makes v k's value unless k already has one.
func (m *Map[K, V]) SetNew(k K, v V) {
	if !m.Has(k) {
		m.Set(k, v)
	}
}

// Share returns a map that reads what m holds now; from now on m and it
// each write a top layer of their own. Sharing a map that wrote nothing
// since it was shared writes nothing.
func (m *Map[K, V]) Share() Map[K, V] {
	if len(m.top) > 0 {
		m.freeze()
	}
	return Map[K, V]{frozen: m.frozen}
}

// freeze makes the top layer a frozen one, merging layers as the type's
// comment says, and leaves m without a top layer.
func (m *Map[K, V]) freeze() {
	// A new slice: the old one may be a share's.
	layers := make([]map[K]V, 0, len(m.frozen)+1)
	layers = append(append(layers, m.top), m.frozen...)
	for len(layers) >= 2 && len(layers[0]) >= len(layers[1]) {
		merged := make(map[K]V, len(layers[0])+len(layers[1]))
		for k, v := range layers[1] {
			merged[k] = v
		}
		for k, v := range layers[0] { // newer wins
			merged[k] = v
		}
		layers = append([]map[K]V{merged}, layers[2:]...)
	}
	m.top, m.frozen = nil, layers
}

// Retain keeps the entries keep says to and returns how many it dropped.
// What stays is copied into one new top layer: the frozen layers may be
// shared, and what was dropped must not stay reachable through them.
func (m *Map[K, V]) Retain(keep func(K, V) bool) int {
	all := m.Flat()
	n := 0
	for k, v := range all {
		if !keep(k, v) {
			delete(all, k)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	// Maps do not shrink: a copy of what is left lets the rest go.
	top := make(map[K]V, len(all))
	for k, v := range all {
		top[k] = v
	}
	*m = Map[K, V]{top: top}
	return n
}

// Flat returns every entry in one new map (nil for none).
func (m *Map[K, V]) Flat() map[K]V {
	n := len(m.top)
	for _, l := range m.frozen {
		n += len(l)
	}
	if n == 0 {
		return nil
	}
	out := make(map[K]V, n)
	for i := len(m.frozen) - 1; i >= 0; i-- { // oldest first: newer wins
		for k, v := range m.frozen[i] {
			out[k] = v
		}
	}
	for k, v := range m.top {
		out[k] = v
	}
	return out
}

// MarshalJSONTo writes the map as one JSON object.
func (m Map[K, V]) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, m.Flat())
}

// UnmarshalJSONFrom reads a map MarshalJSONTo wrote.
func (m *Map[K, V]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var all map[K]V
	if err := json.UnmarshalDecode(dec, &all); err != nil {
		return err
	}
	*m = Map[K, V]{top: all}
	return nil
}
