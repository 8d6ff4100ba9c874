package otel

// bounded is a map that forgets its oldest entries past a size: what a
// translator remembers of spans, traces and tool calls stays bounded
// however long it runs.
type bounded[V any] struct {
	max   int
	m     map[string]V
	order []string // insertion order, oldest first
}

func newBounded[V any](max int) *bounded[V] {
	return &bounded[V]{max: max, m: map[string]V{}}
}

func (b *bounded[V]) get(k string) (V, bool) {
	v, ok := b.m[k]
	return v, ok
}

func (b *bounded[V]) put(k string, v V) {
	if _, ok := b.m[k]; !ok {
		b.order = append(b.order, k)
	}
	b.m[k] = v
	for len(b.m) > b.max && len(b.order) > 0 {
		delete(b.m, b.order[0])
		b.order = b.order[1:]
	}
}
