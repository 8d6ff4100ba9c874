package fold

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// owners records who opened each stream of one kind (messages, tool calls,
// activities, reasoning): the owner's tag by stream id. Entries are only
// ever added or overwritten, and older ones sit in frozen layers that
// checkpoints share (see layered), so a checkpoint does not copy every id
// the log ever opened. In the exported state it is a plain JSON object.
type owners struct {
	l layered[string, tag]
}

// get returns the owner of id, and whether one is known.
func (o *owners) get(id string) (tag, bool) {
	if t, ok := o.l.top[id]; ok {
		return t, true
	}
	for _, m := range o.l.frozen {
		if t, ok := m[id]; ok {
			return t, true
		}
	}
	return tag{}, false
}

// set records t as the owner of id.
func (o *owners) set(id string, t tag) {
	if o.l.top == nil {
		o.l.top = map[string]tag{}
	}
	o.l.top[id] = t
}

// keepOnly drops every owner whose id is not in ids, and returns how many
// it dropped. The owners left are in one new top layer: frozen layers are
// shared with checkpoints, and the dropped must not stay reachable.
func (o *owners) keepOnly(ids map[string]struct{}) int {
	all := o.flat()
	n := 0
	for id := range all {
		if _, ok := ids[id]; !ok {
			delete(all, id)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	o.l = layered[string, tag]{top: cloneOrNil(all)}
	if o.l.top == nil {
		o.l.top = map[string]tag{}
	}
	return n
}

// share returns owners that read what o holds now and write only their own
// top layer; o goes on with a new top layer of its own. Sharing owners
// whose top is empty (a checkpoint's) changes nothing in them.
func (o *owners) share() owners {
	if len(o.l.top) > 0 {
		o.l.freeze()
	}
	return owners{l: layered[string, tag]{frozen: o.l.frozen}}
}

// flat is every entry in one map.
func (o *owners) flat() map[string]tag {
	n := len(o.l.top)
	for _, m := range o.l.frozen {
		n += len(m)
	}
	if n == 0 {
		return nil
	}
	out := make(map[string]tag, n)
	for i := len(o.l.frozen) - 1; i >= 0; i-- { // older first: newer wins
		for k, v := range o.l.frozen[i] {
			out[k] = v
		}
	}
	for k, v := range o.l.top {
		out[k] = v
	}
	return out
}

// MarshalJSONTo writes the owners as one JSON object.
func (o owners) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, o.flat())
}

// UnmarshalJSONFrom reads owners MarshalJSONTo wrote.
func (o *owners) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var m map[string]tag
	if err := json.UnmarshalDecode(dec, &m); err != nil {
		return err
	}
	o.l = layered[string, tag]{top: m}
	return nil
}
