package fold

import (
	"fmt"
	"maps"
	"testing"

	"github.com/go-json-experiment/json"
)

// An idSet holds what was added; a set shared before an add does not see
// it, and neither does the one it was shared from see what the shared one
// adds; the JSON is one object of ids to true and reads back the same.
func TestIDSet(t *testing.T) {
	var s idSet
	want := map[string]bool{}
	var shared []idSet
	var sharedWant []map[string]bool
	for i := range 300 {
		id := fmt.Sprint("c", i%250)
		s.add(id)
		want[id] = true
		if i%37 == 0 {
			shared = append(shared, s.share())
			sharedWant = append(sharedWant, maps.Clone(want))
		}
	}
	if got := s.flat(); !maps.Equal(got, want) {
		t.Fatalf("set holds %d ids, want %d", len(got), len(want))
	}
	for i := range shared {
		shared[i].add("only-in-the-copy")
		if s.has("only-in-the-copy") {
			t.Fatal("an add to a shared set reached the set it was shared from")
		}
		got := shared[i].flat()
		delete(got, "only-in-the-copy")
		if !maps.Equal(got, sharedWant[i]) {
			t.Fatalf("shared set %d holds %d ids, want the %d there were", i, len(got), len(sharedWant[i]))
		}
	}
	if s.has("c299") || !s.has("c249") {
		t.Fatal("has is wrong")
	}
	b, err := json.Marshal(s, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	var back idSet
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.flat(), want) {
		t.Fatalf("JSON round trip: %s", b)
	}
	var m map[string]bool
	if err := json.Unmarshal(b, &m); err != nil || !maps.Equal(m, want) {
		t.Fatalf("the JSON is not an object of ids to true: %s", b)
	}
}
