package otlp_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// lineBatch is a batch of lines as a tail reads them: each line's raw
// JSON, decoded as an AG-UI event (which an OTLP request is not).
func lineBatch(source string, first uint64, lines ...[]byte) model.Batch {
	b := model.Batch{Source: source}
	for i, l := range lines {
		b.Records = append(b.Records, model.Record{Seq: first + uint64(i), Proto: model.ProtoAGUI, Raw: l, Event: agui.Decode(l)})
	}
	return b
}

// collect runs Live over batches sent one at a time, returning what came
// out of each before the next went in, then what came after the input
// closed.
func collect(t *testing.T, opts otel.Options, in ...model.Batch) (each [][]model.Record, atEnd []model.Record) {
	t.Helper()
	src := make(chan model.Batch)
	out := otlp.Live(context.Background(), src, opts)
	for _, b := range in {
		src <- b
		got := <-out
		if got.Source != b.Source || got.Restart != b.Restart {
			t.Fatalf("batch of %q (restart %v) came out as %q (restart %v)", b.Source, b.Restart, got.Source, got.Restart)
		}
		each = append(each, got.Records)
	}
	close(src)
	for b := range out {
		atEnd = append(atEnd, b.Records...)
	}
	return each, atEnd
}

// A Collector file followed as it grows is mapped line by line, each as
// it arrives: a step shows as soon as its line is read, numbered on
// without a gap; the file's runs end when the input does. The threads and
// steps are those of the file read whole.
func TestLiveLines(t *testing.T) {
	b, err := os.ReadFile(fleet)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	var in []model.Batch
	for i, l := range lines {
		in = append(in, lineBatch(fleet, uint64(i+1), l))
	}
	each, atEnd := collect(t, otel.Options{}, in...)
	ts := fold.NewThreads(fold.Options{})
	seq := uint64(0)
	for i, recs := range each {
		if len(recs) == 0 {
			t.Fatalf("line %d mapped to nothing", i+1)
		}
		for _, r := range recs {
			if seq++; r.Seq != seq || r.Thread == "" {
				t.Fatalf("line %d: record seq %d thread %q, want seq %d", i+1, r.Seq, r.Thread, seq)
			}
		}
		ts.Apply(fleet, recs...)
		if i == 0 && len(ts.List()) != 1 {
			t.Fatalf("after line 1: %d threads", len(ts.List()))
		}
	}
	ts.Apply(fleet, atEnd...)
	_, whole := readFile(t, b)
	if ts.Len() != whole.Len() {
		t.Fatalf("%d threads, the file read whole has %d", ts.Len(), whole.Len())
	}
	for _, th := range ts.List() {
		if d := th.Fold.Diagnostics(); len(d) != 0 {
			t.Errorf("%s: %+v", th.ID, d)
		}
		w := otlptest.Thread(t, whole, th.ID)
		got, want := th.Fold.Steps(), w.Fold.Steps()
		if len(got) != len(want) {
			t.Fatalf("thread %s: %d steps, the file read whole has %d", th.ID, len(got), len(want))
		}
		for j := range got {
			if got[j].ToolCallID != want[j].ToolCallID || got[j].Status != want[j].Status {
				t.Errorf("%s step %d: %s %s, read whole %s %s", th.ID, j+1, got[j].ToolCallID, got[j].Status, want[j].ToolCallID, want[j].Status)
			}
		}
		for _, r := range th.Fold.Runs() {
			if !r.Status.Done() {
				t.Errorf("%s: run %s still %s after the input ended", th.ID, r.RunID, r.Status)
			}
		}
	}
}

// A source that is not OTLP passes as it came; in an OTLP source a line
// that is not a request is a problem that names what is wrong, and the
// lines around it are read; a restart starts the mapping over, numbering
// on. Sources are apart: one of each on the same channel.
func TestLiveOtherLinesAndRestart(t *testing.T) {
	b, err := os.ReadFile(fleet)
	if err != nil {
		t.Fatal(err)
	}
	first := bytes.SplitN(b, []byte("\n"), 2)[0]
	event := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	agBatch := lineBatch("agui.jsonl", 7, event)
	restart := lineBatch("o.jsonl", 3, first)
	restart.Restart = true
	each, _ := collect(t, otel.Options{},
		lineBatch("o.jsonl", 1, first, []byte(`{"resourceLogs":7}`)),
		agBatch,
		lineBatch("o.jsonl", 3, []byte(`{"type":"RUN_STARTED"}`)),
		restart,
		lineBatch("agui.jsonl", 8, event, event),
	)
	if len(each[1]) != 1 || each[1][0].Seq != 7 || !bytes.Equal(each[1][0].Raw, event) {
		t.Fatalf("the AG-UI source's batch came out as %+v", each[1])
	}
	if len(each[4]) != 2 || each[4][0].Seq != 8 || each[4][1].Seq != 9 || !bytes.Equal(each[4][1].Raw, event) {
		t.Fatalf("the AG-UI source's next batch came out as %+v", each[4])
	}
	bad := func(recs []model.Record) []string {
		var out []string
		for _, r := range recs {
			if u, ok := r.Event.(*model.Unreadable); ok {
				out = append(out, u.Reason)
			}
		}
		return out
	}
	if why := bad(each[0]); len(why) != 1 || !bytes.Contains([]byte(why[0]), []byte("not an OTLP/JSON logs export request")) {
		t.Errorf("a broken request: %q", why)
	}
	if why := bad(each[2]); len(why) != 1 || !bytes.Contains([]byte(why[0]), []byte("not an OTLP/JSON export request")) {
		t.Errorf("an AG-UI line in an OTLP file: %q", why)
	}
	last := each[0][len(each[0])-1].Seq
	if each[2][0].Seq != last+1 || each[3][0].Seq != last+2 {
		t.Errorf("numbering: %d, %d after %d", each[2][0].Seq, each[3][0].Seq, last)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("o", each[3]...)
	if ts.Len() != 1 || len(ts.List()[0].Fold.Runs()) != 1 {
		t.Fatalf("after the restart the mapping starts over: %d threads", ts.Len())
	}
}
