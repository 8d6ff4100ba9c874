package persist

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/go-json-experiment/json"
)

// What a Map reads, through its layers, for each way it was written.
func TestMapReads(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(m *Map[string, int])
		want  map[string]int
	}{
		{"empty", func(*Map[string, int]) {}, nil},
		{"set", func(m *Map[string, int]) { m.Set("a", 1) }, map[string]int{"a": 1}},
		{"newer wins over a frozen layer", func(m *Map[string, int]) {
			m.Set("a", 1)
			m.Share()
			m.Set("a", 2)
		}, map[string]int{"a": 2}},
		{"newer wins in a merge", func(m *Map[string, int]) {
			m.Set("a", 1)
			m.Set("b", 1)
			m.Share()
			m.Set("a", 2)
			m.Set("c", 2)
			m.Share() // as big as the layer below: merged
		}, map[string]int{"a": 2, "b": 1, "c": 2}},
		{"SetNew keeps a frozen value", func(m *Map[string, int]) {
			m.Set("a", 1)
			m.Share()
			m.SetNew("a", 2)
			m.SetNew("b", 3)
		}, map[string]int{"a": 1, "b": 3}},
		{"Retain across layers", func(m *Map[string, int]) {
			for i := range 6 {
				m.Set(fmt.Sprint(i), i)
				m.Share()
			}
			m.Retain(func(_ string, v int) bool { return v%2 == 0 })
		}, map[string]int{"0": 0, "2": 2, "4": 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m Map[string, int]
			c.write(&m)
			checkMap(t, c.name, &m, c.want)
		})
	}
}

// Sharing after every write keeps few layers: at most one more than the
// bits of the entries' count.
func TestMapLayersStayFew(t *testing.T) {
	var m Map[int, int]
	for i := range 5000 {
		m.Set(i, i)
		m.Share()
		if most := bits.Len(uint(i+1)) + 1; len(m.frozen) > most {
			t.Fatalf("%d entries in %d layers, want at most %d", i+1, len(m.frozen), most)
		}
	}
}

// Retain drops what it is told to, says how many, and leaves what it
// dropped out of every layer (one new top, no frozen layer kept).
func TestMapRetain(t *testing.T) {
	var m Map[string, int]
	for i := range 100 {
		m.Set(fmt.Sprint(i), i)
		if i%10 == 0 {
			m.Share()
		}
	}
	if n := m.Retain(func(string, int) bool { return true }); n != 0 {
		t.Fatalf("keeping everything dropped %d", n)
	}
	if n := m.Retain(func(_ string, v int) bool { return v < 30 }); n != 70 {
		t.Fatalf("dropped %d, want 70", n)
	}
	if len(m.frozen) != 0 || len(m.top) != 30 {
		t.Fatalf("%d frozen layers and a top of %d after Retain, want none and 30", len(m.frozen), len(m.top))
	}
}

// The persistence property: a Map driven by random writes, shares and
// Retains reads like a plain map, every share keeps reading what the map
// held when it was taken however either side is written after, and the
// JSON is the plain map's.
func TestMapShares(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 3))
			var m Map[string, int]
			want := map[string]int{}
			type kept struct {
				m    Map[string, int]
				want map[string]int
			}
			var shares []kept
			for step := range 600 {
				k := fmt.Sprint("k", rng.IntN(100))
				switch op := rng.IntN(100); {
				case op < 60:
					m.Set(k, step)
					want[k] = step
				case op < 70:
					m.SetNew(k, step)
					if _, ok := want[k]; !ok {
						want[k] = step
					}
				case op < 72:
					cut := rng.IntN(4)
					keep := func(k string, _ int) bool { return len(k)%4 != cut }
					m.Retain(keep)
					maps.DeleteFunc(want, func(k string, v int) bool { return !keep(k, v) })
				case op < 85:
					shares = keep(rng, shares, kept{m: m.Share(), want: maps.Clone(want)})
				default: // a share written on its own, and shared again
					if len(shares) > 0 {
						s := &shares[rng.IntN(len(shares))]
						again := s.m.Share()
						again.Set(k, -1)
						s.m.Set(k, -2)
						s.want[k] = -2
					}
				}
				checkMap(t, fmt.Sprint("step ", step), &m, want)
				for i := range shares {
					checkMap(t, fmt.Sprint("step ", step, ", share ", i), &shares[i].m, shares[i].want)
				}
			}
			wire, err := json.Marshal(m, json.Deterministic(true))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := json.Marshal(want, json.Deterministic(true))
			if string(wire) != string(plain) {
				t.Fatalf("JSON %s, want %s", wire, plain)
			}
			var back Map[string, int]
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			checkMap(t, "read back", &back, want)
		})
	}
}

// checkMap fails unless m reads as want.
func checkMap[K comparable, V comparable](t *testing.T, at string, m *Map[K, V], want map[K]V) {
	t.Helper()
	if got := m.Flat(); !maps.Equal(got, want) {
		t.Fatalf("%s: holds %v, want %v", at, got, want)
	}
	for k, w := range want {
		if v, ok := m.Get(k); !ok || v != w || !m.Has(k) {
			t.Fatalf("%s: %v is %v (%v), want %v", at, k, v, ok, w)
		}
	}
	var absent K
	if _, in := want[absent]; !in && m.Has(absent) {
		t.Fatalf("%s: has the zero key", at)
	}
}

// keep adds x to the values a property test checks after every change,
// in place of one of them at random once there are 24: enough to hold
// values of every age, few enough to check them all each time.
func keep[T any](rng *rand.Rand, taken []T, x T) []T {
	if len(taken) < 24 {
		return append(taken, x)
	}
	taken[rng.IntN(len(taken))] = x
	return taken
}
