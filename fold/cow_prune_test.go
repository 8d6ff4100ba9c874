package fold

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentwatch/agentwatch/fold/agui"
	"github.com/agentwatch/agentwatch/internal/loggen"
	"github.com/agentwatch/agentwatch/model"
)

// A fold that took a checkpoint and then sheds and forgets as it goes, as
// a screen does once it kept a resume point, lets its copy-on-write
// records go of what it dropped: they stay a bounded share of what it
// keeps. It ends exactly as the same fold that never took a checkpoint,
// and the checkpoint still restores what the fold was when it was taken.
func TestCowPrunedAsItSheds(t *testing.T) {
	for name, recs := range map[string][]model.Record{
		"tool calls": callLog("alone", 12_000),
		"loggen":     linesToRecords(loggen.Generate(40_000, 3)),
	} {
		t.Run(name, func(t *testing.T) {
			never, took := New(Options{}), New(Options{})
			const first, every = 1000, 500
			never.Apply(recs[:first]...)
			took.Apply(recs[:first]...)
			cp := took.Checkpoint()
			atCp := exported(t, FromCheckpoint(cp, Options{}))
			most := 0
			for i := first; i < len(recs); i += every {
				for _, f := range []*Fold{never, took} {
					f.Apply(recs[i:min(i+every, len(recs))]...)
					f.Shed(200, 50)
					f.Forget(100)
				}
				c, d, r := took.st.Display.cow, &took.st.Display, &took.st.Reduce
				for what, n := range map[string][2]int{
					"items": {len(c.items), len(d.Items)}, "steps": {len(c.steps), len(d.Steps)},
					"messages": {len(c.msgs), len(r.Messages)},
				} {
					if n[0] > 2*n[1]+1024 {
						t.Fatalf("after %d records the fold records %d %s as its own, and keeps %d", i, n[0], what, n[1])
					}
					most = max(most, n[0])
				}
			}
			if most < 1024 {
				t.Fatalf("the records never held more than %d objects: nothing to prune", most)
			}
			if got, want := exported(t, took), exported(t, never); !bytes.Equal(got, want) {
				t.Errorf("the fold that took a checkpoint ends otherwise than the one that did not")
			}
			if got := exported(t, FromCheckpoint(cp, Options{})); !bytes.Equal(got, atCp) {
				t.Errorf("folding on after the checkpoint changed it")
			}
		})
	}
}

// exported is f's state as JSON.
func exported(t *testing.T, f *Fold) []byte {
	t.Helper()
	s, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// linesToRecords is a JSON Lines log as records.
func linesToRecords(log []byte) []model.Record {
	lines := bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
	recs := make([]model.Record, len(lines))
	for i, ln := range lines {
		ev := agui.Decode(ln)
		at, _ := agui.Time(ev)
		recs[i] = model.Record{Seq: uint64(i + 1), At: at, Proto: model.ProtoAGUI, Raw: ln, Event: ev}
	}
	return recs
}
