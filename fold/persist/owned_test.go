package persist

import "testing"

// Prune lets go of what is no longer kept once that is at least as much as
// what is, and not before.
func TestOwnedPrune(t *testing.T) {
	objs := make([]*int, 3000)
	for i := range objs {
		objs[i] = new(int)
	}
	for _, c := range []struct {
		name      string
		own, kept int // the first own objects are recorded, the first kept kept
		want      int
	}{
		{"nothing recorded", 0, 10, 0},
		{"few dropped", 1000, 10, 1000},             // under 1,024 plus twice what is kept
		{"many dropped", 2000, 10, 10},              // rebuilt
		{"dropped as many as kept", 3000, 900, 900}, // 3,000 ≥ 2×900+1,024
		{"dropped fewer than kept", 2800, 900, 2800},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Owned[int]
			for _, x := range objs[:c.own] {
				o.Add(x)
			}
			o.Prune(objs[:c.kept])
			if o.Len() != c.want {
				t.Fatalf("%d recorded after Prune, want %d", o.Len(), c.want)
			}
			for _, x := range objs[:min(c.kept, c.own)] {
				if !o.Has(x) {
					t.Fatal("Prune let go of an object that is kept")
				}
			}
		})
	}
}
