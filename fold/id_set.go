package fold

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// idSet is a set of ids that only grows (until it is emptied), kept in
// layers that checkpoints share (see layered): a run's answered tool calls,
// which a checkpoint copied whole before, so that a run of 100,000 tool
// calls replayed kept 208 MB of copies. In the exported state it is a JSON
// object of ids to true.
type idSet struct {
	l layered[string, bool]
}

// has reports whether id is in the set.
func (s *idSet) has(id string) bool { return s.l.has(id) }

// add puts id in the set.
func (s *idSet) add(id string) {
	if s.l.top == nil {
		s.l.top = map[string]bool{}
	}
	s.l.top[id] = true
}

// share returns a set that reads what s holds now and writes only its own
// top layer; s goes on with a new top layer of its own.
func (s *idSet) share() idSet {
	if len(s.l.top) > 0 {
		s.l.freeze()
	}
	return idSet{l: layered[string, bool]{frozen: s.l.frozen}}
}

// flat is every id in one map (nil for none).
func (s *idSet) flat() map[string]bool {
	n := len(s.l.top)
	for _, m := range s.l.frozen {
		n += len(m)
	}
	if n == 0 {
		return nil
	}
	out := make(map[string]bool, n)
	for _, m := range s.l.frozen {
		for id := range m {
			out[id] = true
		}
	}
	for id := range s.l.top {
		out[id] = true
	}
	return out
}

// MarshalJSONTo writes the set as one JSON object of ids to true.
func (s idSet) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, s.flat())
}

// UnmarshalJSONFrom reads a set MarshalJSONTo wrote.
func (s *idSet) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var m map[string]bool
	if err := json.UnmarshalDecode(dec, &m); err != nil {
		return err
	}
	*s = idSet{}
	for id, ok := range m {
		if ok {
			s.add(id)
		}
	}
	return nil
}
