package fold

import (
	"cmp"
	"iter"
	"maps"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// tombstone is a tombstone that knows the Forget generation it was made in
// (goneMessage, goneCall).
type tombstone interface{ generation() uint64 }

func (g goneMessage) generation() uint64 { return g.Gen }
func (g goneCall) generation() uint64    { return g.Gen }

// tombs holds tombstones by id, in one map per Forget generation, which
// checkpoints share. Forget drops whole generations at a time and Shed
// writes only the newest, so a checkpoint taken after Forget (as a
// replay's are) shares every map and copies none. One map copied whole
// per checkpoint was 80 MB of the 265 MB a replay of 100,000 tool calls
// in one run kept. In the exported state it is one JSON object by id.
type tombs[V tombstone] struct {
	gens []tombGen[V] // oldest generation first
}

// tombGen is one generation's tombstones.
type tombGen[V tombstone] struct {
	gen uint64
	m   map[string]V
	// shared is set when a checkpoint may hold m: m is copied before a
	// write.
	shared bool
}

// get returns id's tombstone.
func (t *tombs[V]) get(id string) (V, bool) {
	if i := t.holding(id); i >= 0 {
		return t.gens[i].m[id], true
	}
	var zero V
	return zero, false
}

// has reports whether id has a tombstone.
func (t *tombs[V]) has(id string) bool { return t.holding(id) >= 0 }

// len is the number of tombstones.
func (t *tombs[V]) len() int {
	n := 0
	for _, g := range t.gens {
		n += len(g.m)
	}
	return n
}

// all yields every tombstone, in no particular order.
func (t *tombs[V]) all() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for _, g := range t.gens {
			for id, v := range g.m {
				if !yield(id, v) {
					return
				}
			}
		}
	}
}

// set makes v id's tombstone, in v's generation.
func (t *tombs[V]) set(id string, v V) {
	gen := v.generation()
	if i := t.holding(id); i >= 0 && t.gens[i].gen != gen {
		t.remove(i, id)
	}
	t.own(t.at(gen))[id] = v
}

// del drops id's tombstone.
func (t *tombs[V]) del(id string) {
	if i := t.holding(id); i >= 0 {
		t.remove(i, id)
	}
}

// deleteIf drops the tombstones drop says to.
func (t *tombs[V]) deleteIf(drop func(id string, v V) bool) {
	out := make([]tombGen[V], 0, len(t.gens))
	for _, g := range t.gens {
		var gone []string
		for id, v := range g.m {
			if drop(id, v) {
				gone = append(gone, id)
			}
		}
		if len(gone) == len(g.m) {
			continue
		}
		if len(gone) > 0 {
			if g.shared {
				g.m, g.shared = maps.Clone(g.m), false
			}
			for _, id := range gone {
				delete(g.m, id)
			}
		}
		out = append(out, g)
	}
	t.gens = out
}

// dropBefore drops every generation older than gen, calling each (when
// not nil) with every id it drops, and returns how many it dropped.
func (t *tombs[V]) dropBefore(gen uint64, each func(id string)) int {
	k, n := 0, 0
	for k < len(t.gens) && t.gens[k].gen < gen {
		n += len(t.gens[k].m)
		if each != nil {
			for id := range t.gens[k].m {
				each(id)
			}
		}
		k++
	}
	t.gens = slices.Delete(t.gens, 0, k)
	return n
}

// clear drops every tombstone.
func (t *tombs[V]) clear() { t.gens = nil }

// share returns tombstones that read what t holds now; from now on t and
// they each copy a generation before writing to it. It writes nothing
// when every generation is already shared, so that the tombstones a
// checkpoint holds can be shared from several goroutines at once.
func (t *tombs[V]) share() tombs[V] {
	for i := range t.gens {
		if !t.gens[i].shared {
			t.gens[i].shared = true
		}
	}
	return tombs[V]{gens: slices.Clone(t.gens)}
}

// holding returns the index of the generation that holds id, or -1.
func (t *tombs[V]) holding(id string) int {
	for i := len(t.gens) - 1; i >= 0; i-- {
		if _, ok := t.gens[i].m[id]; ok {
			return i
		}
	}
	return -1
}

// at returns the index of generation gen, added when there is none.
func (t *tombs[V]) at(gen uint64) int {
	i, found := slices.BinarySearchFunc(t.gens, gen, func(g tombGen[V], gen uint64) int { return cmp.Compare(g.gen, gen) })
	if !found {
		t.gens = slices.Insert(t.gens, i, tombGen[V]{gen: gen, m: map[string]V{}})
	}
	return i
}

// own returns generation i's map, copied first when it may be shared.
func (t *tombs[V]) own(i int) map[string]V {
	g := &t.gens[i]
	if g.shared {
		g.m, g.shared = maps.Clone(g.m), false
	}
	return g.m
}

// remove drops id from generation i, and the generation when id was its
// last.
func (t *tombs[V]) remove(i int, id string) {
	if len(t.gens[i].m) == 1 {
		t.gens = slices.Delete(t.gens, i, i+1)
		return
	}
	delete(t.own(i), id)
}

// MarshalJSONTo writes the tombstones as one JSON object by id.
func (t tombs[V]) MarshalJSONTo(enc *jsontext.Encoder) error {
	out := make(map[string]V, t.len())
	for id, v := range t.all() {
		out[id] = v
	}
	return json.MarshalEncode(enc, out)
}

// UnmarshalJSONFrom reads tombstones MarshalJSONTo wrote.
func (t *tombs[V]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var m map[string]V
	if err := json.UnmarshalDecode(dec, &m); err != nil {
		return err
	}
	*t = tombs[V]{}
	for id, v := range m {
		t.set(id, v)
	}
	return nil
}
