package fold

import (
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// titleRecords makes records of AG-UI events given as JSON.
func titleRecords(events ...string) []model.Record {
	recs := make([]model.Record, len(events))
	for i, e := range events {
		recs[i] = model.Record{Seq: uint64(i + 1), Proto: model.ProtoAGUI, Raw: []byte(e), Event: agui.Decode([]byte(e))}
	}
	return recs
}

// A thread's title is the one its CUSTOM "title" events give, the user's
// own (custom-title) before one made for them (ai-title, summary), the
// latest of a rank; without one, its first user message. A restored set
// keeps it.
func TestThreadTitleFromEvents(t *testing.T) {
	const (
		run   = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
		ask   = `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"user"}`
		says  = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"first question"}`
		done  = `{"type":"TEXT_MESSAGE_END","messageId":"m"}`
		ai    = `{"type":"CUSTOM","name":"title","value":{"title":"Made  for\nthem","source":"ai-title"}}`
		ai2   = `{"type":"CUSTOM","name":"title","value":{"title":"Made later","source":"ai-title"}}`
		own   = `{"type":"CUSTOM","name":"title","value":{"title":"Set by the user","source":"custom-title"}}`
		other = `{"type":"CUSTOM","name":"note","value":{"title":"not a title"}}`
		bad   = `{"type":"CUSTOM","name":"title","value":"just a string"}`
	)
	for _, c := range []struct {
		name   string
		events []string
		want   string
	}{
		{"first message", []string{run, ask, says, done, other, bad}, "first question"},
		{"made for them", []string{run, ask, says, done, ai}, "Made for them"},
		{"the latest made", []string{run, ai, ask, says, done, ai2}, "Made later"},
		{"the user's own first", []string{run, own, ai2}, "Set by the user"},
		{"the user's own after", []string{ai, run, own}, "Set by the user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := NewThreads(Options{})
			ts.Apply("s", titleRecords(c.events...)...)
			th := ts.List()[0]
			if got := th.Title(); got != c.want {
				t.Fatalf("title %q, want %q", got, c.want)
			}
			snap, err := ts.Export()
			if err != nil {
				t.Fatal(err)
			}
			back, err := RestoreThreads(snap, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := back.List()[0].Title(); got != c.want {
				t.Fatalf("restored title %q, want %q", got, c.want)
			}
		})
	}
}
