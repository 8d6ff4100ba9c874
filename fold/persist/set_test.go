package persist

import (
	"fmt"
	"maps"
	"testing"

	"github.com/go-json-experiment/json"
)

// A Set holds what was added; a set shared before an add does not see it,
// and neither does the one it was shared from see what the shared one
// adds; the JSON is one object of members to true and reads back the same.
func TestSet(t *testing.T) {
	var s Set[string]
	want := map[string]bool{}
	var shared []Set[string]
	var sharedWant []map[string]bool
	for i := range 300 {
		id := fmt.Sprint("c", i%250)
		s.Add(id)
		want[id] = true
		if i%37 == 0 {
			shared = append(shared, s.Share())
			sharedWant = append(sharedWant, maps.Clone(want))
		}
	}
	if got := s.Members(); !maps.Equal(got, want) {
		t.Fatalf("set holds %d members, want %d", len(got), len(want))
	}
	for i := range shared {
		shared[i].Add("only-in-the-copy")
		if s.Has("only-in-the-copy") {
			t.Fatal("an add to a shared set reached the set it was shared from")
		}
		got := shared[i].Members()
		delete(got, "only-in-the-copy")
		if !maps.Equal(got, sharedWant[i]) {
			t.Fatalf("shared set %d holds %d members, want the %d there were", i, len(got), len(sharedWant[i]))
		}
	}
	if s.Has("c299") || !s.Has("c249") {
		t.Fatal("Has is wrong")
	}
	b, err := json.Marshal(s, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	var back Set[string]
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(back.Members(), want) {
		t.Fatalf("JSON round trip: %s", b)
	}
	var m map[string]bool
	if err := json.Unmarshal(b, &m); err != nil || !maps.Equal(m, want) {
		t.Fatalf("the JSON is not an object of members to true: %s", b)
	}
}

// JSON: an empty set is an empty object, and a member written as false is
// not one.
func TestSetJSON(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]bool
	}{
		{`{}`, nil},
		{`null`, nil},
		{`{"a":true,"b":false}`, map[string]bool{"a": true}},
	} {
		var s Set[string]
		if err := json.Unmarshal([]byte(c.in), &s); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := s.Members(); !maps.Equal(got, c.want) {
			t.Errorf("%s read as %v, want %v", c.in, got, c.want)
		}
	}
	if b, _ := json.Marshal(Set[string]{}); string(b) != `{}` {
		t.Errorf("an empty set is %s, want {}", b)
	}
}
