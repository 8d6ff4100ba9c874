package fold

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/go-json-experiment/json"
)

// TestTombsLikeAMap drives tombs with random writes, deletes, drops of old
// generations and shares, against a plain map: every read agrees with the
// map, a shared copy keeps reading what it read when it was taken however
// either side is written after, and the JSON is the map's.
func TestTombsLikeAMap(t *testing.T) {
	for seed := range uint64(16) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var tb tombs[goneCall]
			want := map[string]goneCall{}
			type kept struct {
				tb   tombs[goneCall]
				want map[string]goneCall
			}
			var shares []kept
			gen := uint64(0)
			for step := range 1000 {
				id := fmt.Sprint("c", rng.IntN(60))
				switch op := rng.IntN(100); {
				case op < 45: // a new tombstone, or one rewritten in the newest generation
					v := goneCall{Name: fmt.Sprint("n", step), Gen: gen}
					tb.set(id, v)
					want[id] = v
				case op < 55: // an old one's Next filled in, in its own generation
					if v, ok := want[id]; ok {
						v.Next = fmt.Sprint("m", step)
						tb.set(id, v)
						want[id] = v
					}
				case op < 62:
					tb.del(id)
					delete(want, id)
				case op < 66:
					cut := rng.IntN(3)
					drop := func(id string, v goneCall) bool { return len(id)%3 == cut }
					tb.deleteIf(drop)
					maps.DeleteFunc(want, drop)
				case op < 76: // Forget: drop what is older than the previous generation
					before := gen - min(gen, 1)
					n := 0
					dropped := map[string]bool{}
					for id, v := range want {
						if v.Gen < before {
							delete(want, id)
							n++
						}
					}
					got := tb.dropBefore(before, func(id string) { dropped[id] = true })
					if got != n || len(dropped) != n {
						t.Fatalf("step %d: dropBefore(%d) dropped %d (%d ids), want %d", step, before, got, len(dropped), n)
					}
					gen++
				case op < 86:
					shares = append(shares, kept{tb: tb.share(), want: maps.Clone(want)})
				case op < 88:
					tb.clear()
					clear(want)
				default: // a fold restored from a share writes on its own
					if len(shares) > 0 {
						k := &shares[rng.IntN(len(shares))]
						restored := k.tb.share()
						restored.set(id, goneCall{Name: "restored", Gen: gen})
					}
				}
				checkTombs(t, fmt.Sprint("step ", step), &tb, want)
				for i := range shares {
					checkTombs(t, fmt.Sprint("step ", step, ", share ", i), &shares[i].tb, shares[i].want)
				}
			}
			wire, err := json.Marshal(tb, json.Deterministic(true))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := json.Marshal(want, json.Deterministic(true))
			if string(wire) != string(plain) {
				t.Fatalf("JSON %s, want %s", wire, plain)
			}
			var back tombs[goneCall]
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			checkTombs(t, "read back", &back, want)
		})
	}
}

// checkTombs fails unless tb reads as want.
func checkTombs(t *testing.T, at string, tb *tombs[goneCall], want map[string]goneCall) {
	t.Helper()
	if tb.len() != len(want) {
		t.Fatalf("%s: len %d, want %d", at, tb.len(), len(want))
	}
	for id, w := range want {
		if v, ok := tb.get(id); !ok || v != w || !tb.has(id) {
			t.Fatalf("%s: %s is %+v (%v), want %+v", at, id, v, ok, w)
		}
	}
	n := 0
	for id, v := range tb.all() {
		if want[id] != v {
			t.Fatalf("%s: all yields %s as %+v, want %+v", at, id, v, want[id])
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("%s: all yields %d, want %d", at, n, len(want))
	}
	for i, g := range tb.gens {
		if len(g.m) == 0 || i > 0 && tb.gens[i-1].gen >= g.gen {
			t.Fatalf("%s: generations out of order or empty", at)
		}
	}
}
