package fold

// layered is a map whose lookups fall through to frozen layers that are
// never written again, newest first. A checkpoint freezes the fold's
// current top layer and keeps the list of layers; a fold restored from it
// reads them and writes only its own new top. So neither taking nor
// restoring a checkpoint copies or rebuilds an index (rebuilding took most
// of a seek's time on big logs).
//
// Frozen layers are merged like an LSM tree's levels — a new layer at least
// as big as the one below it is merged with it — so a lookup reads at most
// a logarithmic number of maps and each entry is copied a logarithmic
// number of times.
type layered[K comparable, V comparable] struct {
	top    map[K]V
	frozen []map[K]V // newest first; shared with checkpoints, never written
}

// fresh starts an empty map with room for n entries.
func (l *layered[K, V]) fresh(n int) {
	l.top, l.frozen = make(map[K]V, n), nil
}

// ready reports whether the map was built.
func (l *layered[K, V]) ready() bool { return l.top != nil }

func (l *layered[K, V]) get(k K) V {
	if v, ok := l.top[k]; ok {
		return v
	}
	for _, m := range l.frozen {
		if v, ok := m[k]; ok {
			return v
		}
	}
	var zero V
	return zero
}

func (l *layered[K, V]) has(k K) bool {
	if _, ok := l.top[k]; ok {
		return true
	}
	for _, m := range l.frozen {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (l *layered[K, V]) set(k K, v V) { l.top[k] = v }

// setNew sets k unless it already has a value.
func (l *layered[K, V]) setNew(k K, v V) {
	if !l.has(k) {
		l.top[k] = v
	}
}

// freeze makes the top layer read-only and starts a new one; it returns the
// frozen layers, which the caller may keep: they never change.
func (l *layered[K, V]) freeze() []map[K]V {
	if len(l.top) > 0 {
		layers := make([]map[K]V, 0, len(l.frozen)+1)
		layers = append(append(layers, l.top), l.frozen...)
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
		l.frozen = layers
	}
	l.top = map[K]V{}
	return l.frozen
}

// thaw starts a map over frozen layers.
func thaw[K comparable, V comparable](frozen []map[K]V) layered[K, V] {
	return layered[K, V]{top: map[K]V{}, frozen: frozen}
}
