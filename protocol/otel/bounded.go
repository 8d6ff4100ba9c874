package otel

import "slices"

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

// del forgets k.
func (b *bounded[V]) del(k string) {
	if _, ok := b.m[k]; !ok {
		return
	}
	delete(b.m, k)
	b.order = slices.DeleteFunc(b.order, func(o string) bool { return o == k })
}

// keys are the keys held, oldest first.
func (b *bounded[V]) keys() []string {
	out := make([]string, 0, len(b.m))
	for _, k := range b.order {
		if _, ok := b.m[k]; ok {
			out = append(out, k)
		}
	}
	return out
}
