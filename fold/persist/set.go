package persist

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Set is a set kept in a Map, so shares of it copy nothing: a run's
// answered tool calls, which a checkpoint would otherwise copy whole at
// every checkpoint of a long run. The zero Set is empty. In JSON a Set is one object of its members to true.
type Set[K comparable] struct {
	m Map[K, bool]
}

// Has reports whether k is in the set.
func (s *Set[K]) Has(k K) bool { return s.m.Has(k) }

// Add puts k in the set.
func (s *Set[K]) Add(k K) { s.m.Set(k, true) }

// Share returns a set that reads what s holds now; from now on s and it
// each add to a layer of their own (Map.Share).
func (s *Set[K]) Share() Set[K] { return Set[K]{m: s.m.Share()} }

// Members returns every member in one new map of members to true (nil for
// none).
func (s *Set[K]) Members() map[K]bool { return s.m.Flat() }

// MarshalJSONTo writes the set as one JSON object of its members to true.
func (s Set[K]) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, s.Members())
}

// UnmarshalJSONFrom reads a set MarshalJSONTo wrote; a member written as
// false is not one.
func (s *Set[K]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var all map[K]bool
	if err := json.UnmarshalDecode(dec, &all); err != nil {
		return err
	}
	*s = Set[K]{}
	for k, in := range all {
		if in {
			s.Add(k)
		}
	}
	return nil
}
