package compact

// orderedMap is a JavaScript Map from string keys: iteration follows
// insertion order, and a key deleted and set again goes to the end.
type orderedMap[V any] struct {
	order []*mapEntry[V]
	byKey map[string]*mapEntry[V]
	dead  int
}

type mapEntry[V any] struct {
	key  string
	val  V
	dead bool
}

func newOrderedMap[V any]() *orderedMap[V] {
	return &orderedMap[V]{byKey: map[string]*mapEntry[V]{}}
}

// get returns the value under key.
func (m *orderedMap[V]) get(key string) (V, bool) {
	e, ok := m.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	return e.val, true
}

// set adds key at the end, or replaces its value where it stands.
func (m *orderedMap[V]) set(key string, v V) {
	if e, ok := m.byKey[key]; ok {
		e.val = v
		return
	}
	e := &mapEntry[V]{key: key, val: v}
	m.byKey[key] = e
	m.order = append(m.order, e)
}

// del removes key.
func (m *orderedMap[V]) del(key string) {
	e, ok := m.byKey[key]
	if !ok {
		return
	}
	e.dead = true
	delete(m.byKey, key)
	m.dead++
	// Drop dead entries now and then, so iteration stays proportional to
	// the live ones even when many streams come and go.
	if m.dead > 32 && m.dead > len(m.order)/2 {
		live := m.order[:0]
		for _, x := range m.order {
			if !x.dead {
				live = append(live, x)
			}
		}
		clear(m.order[len(live):])
		m.order, m.dead = live, 0
	}
}

// each calls fn on the live entries in order until it returns false.
func (m *orderedMap[V]) each(fn func(key string, v V) bool) {
	for _, e := range m.order {
		if !e.dead && !fn(e.key, e.val) {
			return
		}
	}
}

// clear empties the map.
func (m *orderedMap[V]) clear() {
	m.order, m.byKey, m.dead = nil, map[string]*mapEntry[V]{}, 0
}
