package compact

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// output collects a compacted log: input records passed through untouched
// (their Raw is the exact JSON that was read) and events made here.
type output struct {
	recs []model.Record
}

// pass appends an input record as it is.
func (o *output) pass(r *model.Record) { o.recs = append(o.recs, *r) }

// make appends an event built here.
func (o *output) make(raw jsontext.Value) {
	o.recs = append(o.recs, model.Record{Proto: model.ProtoAGUI, Raw: json.RawMessage(raw), Event: agui.Decode(raw)})
}

// done numbers the records from 1 in their new order and returns them.
func (o *output) done() []model.Record {
	for i := range o.recs {
		o.recs[i].Seq = uint64(i + 1)
	}
	return o.recs
}

// newEvent starts an event of the given type.
func newEvent(typ string) *object {
	o := &object{values: map[string]jsontext.Value{}}
	o.set("type", quote(typ))
	return o
}
