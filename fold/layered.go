package fold

// layered is a map whose lookups fall through to a shared base that is never
// written: a fold restored from a checkpoint reads the checkpoint's indexes
// and keeps only what it changed since in top, so a restore does not rebuild
// them (which took most of a seek's time on big logs).
type layered[K comparable, V comparable] struct {
	top  map[K]V
	base map[K]V
}

// fresh starts an empty map with room for n entries.
func (l *layered[K, V]) fresh(n int) {
	l.top, l.base = make(map[K]V, n), nil
}

// ready reports whether the map was built.
func (l *layered[K, V]) ready() bool { return l.top != nil }

func (l *layered[K, V]) get(k K) V {
	if v, ok := l.top[k]; ok {
		return v
	}
	return l.base[k]
}

func (l *layered[K, V]) has(k K) bool {
	if _, ok := l.top[k]; ok {
		return true
	}
	_, ok := l.base[k]
	return ok
}

func (l *layered[K, V]) set(k K, v V) { l.top[k] = v }

// setNew sets k unless it already has a value.
func (l *layered[K, V]) setNew(k K, v V) {
	if !l.has(k) {
		l.top[k] = v
	}
}
