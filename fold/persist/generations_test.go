package persist

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/go-json-experiment/json"
)

// aged is a value of a generation, for the tests.
type aged struct {
	Name string `json:"name"`
	Gen  uint64 `json:"gen"`
}

func (a aged) Generation() uint64 { return a.Gen }

// What Generations reads after a few writes, and how they are kept.
func TestGenerationsWrites(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(g *Generations[string, aged])
		want  map[string]aged
		gens  []uint64
	}{
		{"empty", func(*Generations[string, aged]) {}, map[string]aged{}, nil},
		{"by generation", func(g *Generations[string, aged]) {
			g.Set("b", aged{"b", 2})
			g.Set("a", aged{"a", 1})
		}, map[string]aged{"a": {"a", 1}, "b": {"b", 2}}, []uint64{1, 2}},
		{"moved to a new generation", func(g *Generations[string, aged]) {
			g.Set("a", aged{"a", 1})
			g.Set("a", aged{"a2", 2})
		}, map[string]aged{"a": {"a2", 2}}, []uint64{2}},
		{"old generations dropped", func(g *Generations[string, aged]) {
			for i := range uint64(4) {
				g.Set(fmt.Sprint(i), aged{"x", i})
			}
			g.DropBefore(2, nil)
		}, map[string]aged{"2": {"x", 2}, "3": {"x", 3}}, []uint64{2, 3}},
		{"deleted", func(g *Generations[string, aged]) {
			g.Set("a", aged{"a", 1})
			g.Set("b", aged{"b", 1})
			g.Set("c", aged{"c", 2})
			g.Delete("c")
			g.DeleteFunc(func(k string, _ aged) bool { return k == "a" })
		}, map[string]aged{"b": {"b", 1}}, []uint64{1}},
		{"cleared", func(g *Generations[string, aged]) {
			g.Set("a", aged{"a", 1})
			g.Clear()
		}, map[string]aged{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var g Generations[string, aged]
			c.write(&g)
			checkGenerations(t, c.name, &g, c.want)
			var gens []uint64
			for _, x := range g.gens {
				gens = append(gens, x.gen)
			}
			if fmt.Sprint(gens) != fmt.Sprint(c.gens) {
				t.Errorf("generations %v, want %v", gens, c.gens)
			}
		})
	}
}

// The persistence property: Generations driven with random writes,
// deletes, drops of old generations and shares reads like a plain map,
// a share keeps reading what it read when it was taken however either
// side is written after, and the JSON is the map's.
func TestGenerationsShares(t *testing.T) {
	for seed := range uint64(16) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var g Generations[string, aged]
			want := map[string]aged{}
			type kept struct {
				g    Generations[string, aged]
				want map[string]aged
			}
			var shares []kept
			gen := uint64(0)
			for step := range 1000 {
				id := fmt.Sprint("c", rng.IntN(60))
				switch op := rng.IntN(100); {
				case op < 45: // a new value, or one rewritten in the newest generation
					v := aged{Name: fmt.Sprint("n", step), Gen: gen}
					g.Set(id, v)
					want[id] = v
				case op < 55: // an old one rewritten in its own generation
					if v, ok := want[id]; ok {
						v.Name = fmt.Sprint("m", step)
						g.Set(id, v)
						want[id] = v
					}
				case op < 62:
					g.Delete(id)
					delete(want, id)
				case op < 66:
					cut := rng.IntN(3)
					drop := func(id string, _ aged) bool { return len(id)%3 == cut }
					g.DeleteFunc(drop)
					maps.DeleteFunc(want, drop)
				case op < 76: // drop what is older than the previous generation
					before := gen - min(gen, 1)
					n := 0
					dropped := map[string]bool{}
					for id, v := range want {
						if v.Gen < before {
							delete(want, id)
							n++
						}
					}
					got := g.DropBefore(before, func(id string) { dropped[id] = true })
					if got != n || len(dropped) != n {
						t.Fatalf("step %d: DropBefore(%d) dropped %d (%d keys), want %d", step, before, got, len(dropped), n)
					}
					gen++
				case op < 86:
					shares = keep(rng, shares, kept{g: g.Share(), want: maps.Clone(want)})
				case op < 88:
					g.Clear()
					clear(want)
				default: // a share of a share written on its own
					if len(shares) > 0 {
						k := &shares[rng.IntN(len(shares))]
						again := k.g.Share()
						again.Set(id, aged{Name: "again", Gen: gen})
					}
				}
				checkGenerations(t, fmt.Sprint("step ", step), &g, want)
				for i := range shares {
					checkGenerations(t, fmt.Sprint("step ", step, ", share ", i), &shares[i].g, shares[i].want)
				}
			}
			wire, err := json.Marshal(g, json.Deterministic(true))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := json.Marshal(want, json.Deterministic(true))
			if string(wire) != string(plain) {
				t.Fatalf("JSON %s, want %s", wire, plain)
			}
			var back Generations[string, aged]
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			checkGenerations(t, "read back", &back, want)
		})
	}
}

// checkGenerations fails unless g reads as want, its generations in order
// and none empty.
func checkGenerations(t *testing.T, at string, g *Generations[string, aged], want map[string]aged) {
	t.Helper()
	if g.Len() != len(want) {
		t.Fatalf("%s: len %d, want %d", at, g.Len(), len(want))
	}
	for id, w := range want {
		if v, ok := g.Get(id); !ok || v != w || !g.Has(id) {
			t.Fatalf("%s: %s is %+v (%v), want %+v", at, id, v, ok, w)
		}
	}
	n := 0
	for id, v := range g.All() {
		if want[id] != v {
			t.Fatalf("%s: All yields %s as %+v, want %+v", at, id, v, want[id])
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("%s: All yields %d, want %d", at, n, len(want))
	}
	for i, x := range g.gens {
		if len(x.m) == 0 || i > 0 && g.gens[i-1].gen >= x.gen {
			t.Fatalf("%s: generations out of order or empty", at)
		}
	}
}
