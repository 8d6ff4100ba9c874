package persist

import (
	"cmp"
	"iter"
	"maps"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Aged is a value that knows the generation it belongs to.
type Aged interface {
	Generation() uint64
}

// Generations is a map kept in one map per generation of its values,
// oldest first. Dropping old values drops whole generations, and a write
// goes to its value's generation alone, which a share copies before its
// first write: a holder that drops the old and adds to the new (as the
// fold does with its tombstones) shares every generation with the
// checkpoints it takes and copies none, where one map would be copied
// whole per checkpoint.
//
// The zero Generations is empty. In JSON it is one object.
type Generations[K comparable, V Aged] struct {
	gens []generation[K, V] // oldest first, none empty
}

// generation is one generation's values.
type generation[K comparable, V Aged] struct {
	gen uint64
	m   map[K]V
	// shared is set when a share may hold m: m is copied before a write.
	shared bool
}

// Get returns k's value, and whether k has one.
func (g *Generations[K, V]) Get(k K) (V, bool) {
	if i := g.holding(k); i >= 0 {
		return g.gens[i].m[k], true
	}
	var zero V
	return zero, false
}

// Has reports whether k has a value.
func (g *Generations[K, V]) Has(k K) bool { return g.holding(k) >= 0 }

// Len is the number of values.
func (g *Generations[K, V]) Len() int {
	n := 0
	for _, x := range g.gens {
		n += len(x.m)
	}
	return n
}

// All yields every key and value, in no particular order.
func (g *Generations[K, V]) All() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, x := range g.gens {
			for k, v := range x.m {
				if !yield(k, v) {
					return
				}
			}
		}
	}
}

// Set makes v k's value, in v's generation.
func (g *Generations[K, V]) Set(k K, v V) {
	gen := v.Generation()
	if i := g.holding(k); i >= 0 && g.gens[i].gen != gen {
		g.remove(i, k)
	}
	g.own(g.at(gen))[k] = v
}

// Delete drops k's value.
func (g *Generations[K, V]) Delete(k K) {
	if i := g.holding(k); i >= 0 {
		g.remove(i, k)
	}
}

// DeleteFunc drops the values drop says to.
func (g *Generations[K, V]) DeleteFunc(drop func(K, V) bool) {
	out := make([]generation[K, V], 0, len(g.gens))
	for _, x := range g.gens {
		var gone []K
		for k, v := range x.m {
			if drop(k, v) {
				gone = append(gone, k)
			}
		}
		if len(gone) == len(x.m) {
			continue
		}
		if len(gone) > 0 {
			if x.shared {
				x.m, x.shared = maps.Clone(x.m), false
			}
			for _, k := range gone {
				delete(x.m, k)
			}
		}
		out = append(out, x)
	}
	g.gens = out
}

// DropBefore drops every generation older than gen, calling each (when not
// nil) with every key it drops, and returns how many values it dropped.
func (g *Generations[K, V]) DropBefore(gen uint64, each func(K)) int {
	k, n := 0, 0
	for k < len(g.gens) && g.gens[k].gen < gen {
		n += len(g.gens[k].m)
		if each != nil {
			for key := range g.gens[k].m {
				each(key)
			}
		}
		k++
	}
	g.gens = slices.Delete(g.gens, 0, k)
	return n
}

// Clear drops every value.
func (g *Generations[K, V]) Clear() { g.gens = nil }

// Share returns a map that reads what g holds now; from now on g and it
// each copy a generation before writing to it. It writes nothing when
// every generation is already shared, so that a map kept aside can be
// shared from several goroutines at once.
func (g *Generations[K, V]) Share() Generations[K, V] {
	for i := range g.gens {
		if !g.gens[i].shared {
			g.gens[i].shared = true
		}
	}
	return Generations[K, V]{gens: slices.Clone(g.gens)}
}

// holding returns the index of the generation that holds k, or -1.
func (g *Generations[K, V]) holding(k K) int {
	for i := len(g.gens) - 1; i >= 0; i-- {
		if _, ok := g.gens[i].m[k]; ok {
			return i
		}
	}
	return -1
}

// at returns the index of generation gen, added when there is none.
func (g *Generations[K, V]) at(gen uint64) int {
	i, found := slices.BinarySearchFunc(g.gens, gen, func(x generation[K, V], gen uint64) int { return cmp.Compare(x.gen, gen) })
	if !found {
		g.gens = slices.Insert(g.gens, i, generation[K, V]{gen: gen, m: map[K]V{}})
	}
	return i
}

// own returns generation i's map, copied first when it may be shared.
func (g *Generations[K, V]) own(i int) map[K]V {
	x := &g.gens[i]
	if x.shared {
		x.m, x.shared = maps.Clone(x.m), false
	}
	return x.m
}

// remove drops k from generation i, and the generation when k was its
// last.
func (g *Generations[K, V]) remove(i int, k K) {
	if len(g.gens[i].m) == 1 {
		g.gens = slices.Delete(g.gens, i, i+1)
		return
	}
	delete(g.own(i), k)
}

// MarshalJSONTo writes the map as one JSON object.
func (g Generations[K, V]) MarshalJSONTo(enc *jsontext.Encoder) error {
	out := make(map[K]V, g.Len())
	for k, v := range g.All() {
		out[k] = v
	}
	return json.MarshalEncode(enc, out)
}

// UnmarshalJSONFrom reads a map MarshalJSONTo wrote, each value in its
// generation.
func (g *Generations[K, V]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var m map[K]V
	if err := json.UnmarshalDecode(dec, &m); err != nil {
		return err
	}
	*g = Generations[K, V]{}
	for k, v := range m {
		g.Set(k, v)
	}
	return nil
}
