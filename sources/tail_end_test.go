package sources

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// tailAlone tails data as a file of its own and checks that it gives
// exactly want, and that its last batch ends at data's end.
func tailAlone(t *testing.T, data []byte, want []model.Record, maxEvent int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prefix.log")
	writeFile(t, path, data)
	tl := startBatchTail(t, path, nil, maxEvent)
	tl.until(len(want))
	if len(tl.recs) != len(want) {
		t.Fatalf("alone: %d records, want %d", len(tl.recs), len(want))
	}
	if got, w := types(tl.recs), types(want); !slices.Equal(got, w) {
		t.Fatalf("alone:\n got %v\nwant %v", got, w)
	}
	for i := range want {
		if tl.recs[i].Seq != want[i].Seq || !bytes.Equal(tl.recs[i].Raw, want[i].Raw) {
			t.Fatalf("alone: record %d is %d %s, want %d %s", i, tl.recs[i].Seq, tl.recs[i].Raw, want[i].Seq, want[i].Raw)
		}
	}
	if end := tl.batches[len(tl.batches)-1].End; end != int64(len(data)) {
		t.Fatalf("alone: the last batch ends at %d of %d", end, len(data))
	}
}

// Every batch's End is exact: the file's bytes before it, tailed alone,
// give exactly the records up to the batch's last.
func TestTailEndExact(t *testing.T) {
	const maxEvent = 1000
	var mixed bytes.Buffer
	n := 0
	for i := 0; mixed.Len() < 5<<19; i++ { // 2.5 MB: several batches
		e, _ := tailEvent(i)
		switch {
		case i%97 == 0:
			e = "not json " + e
		case i%89 == 0:
			e = `{"type":"CUSTOM","name":"big","value":"` + strings.Repeat("x", 2*maxEvent) + `"}`
		}
		mixed.WriteString(e)
		n++
		switch {
		case i%53 == 0:
			mixed.WriteString("\r\n")
		case i%61 == 0:
			mixed.WriteString("\n\n  \n")
		default:
			mixed.WriteString("\n")
		}
	}
	whole := mixed.Len()
	mixed.WriteString(`{"type":"RUN_FIN`) // not whole yet
	var sse, array strings.Builder
	array.WriteString("[")
	for i := range 20 {
		e, _ := tailEvent(i)
		sse.WriteString("event: x\ndata: " + e + "\n\n")
		array.WriteString(e + ",\n ")
	}
	cases := []struct {
		name string
		data []byte
		n    int
		end  int // the last batch's End
	}{
		{"jsonl", mixed.Bytes(), n, whole},
		{"sse", []byte(sse.String()), 20, sse.Len()},
		{"array", []byte(array.String()), 20, array.Len() - len(",\n ")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.log")
			writeFile(t, path, c.data)
			full := startBatchTail(t, path, nil, maxEvent)
			full.until(c.n)
			if len(full.recs) != c.n {
				t.Fatalf("%d records, want %d", len(full.recs), c.n)
			}
			if c.name == "jsonl" && len(full.batches) < 3 {
				t.Fatalf("%d batches, want several", len(full.batches))
			}
			var prev int64
			for i, b := range full.batches {
				if len(b.Records) == 0 {
					continue
				}
				if b.End <= prev || b.End > int64(len(c.data)) {
					t.Fatalf("batch %d ends at %d, after %d", i, b.End, prev)
				}
				prev = b.End
				last := int(b.Records[len(b.Records)-1].Seq)
				t.Run(fmt.Sprint(last), func(t *testing.T) { tailAlone(t, c.data[:b.End], full.recs[:last], maxEvent) })
			}
			if prev != int64(c.end) {
				t.Fatalf("the last batch ends at %d, want %d", prev, c.end)
			}
		})
	}
}

// A line over the size limit is a record before its end is read: its
// batch's End is 0 (not known), and the next batch's is exact again.
func TestTailEndOversizedLine(t *testing.T) {
	const maxEvent = 200
	s, _ := lines(0, 2)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeFile(t, path, []byte(s))
	tl := startBatchTail(t, path, nil, maxEvent)
	tl.until(2)
	appendFile(t, path, `{"type":"CUSTOM","value":"`+strings.Repeat("x", 2*maxEvent))
	b := tl.next()
	if len(b.Records) != 1 || b.End != 0 {
		t.Fatalf("%d records ending at %d, want the oversized line's, at 0", len(b.Records), b.End)
	}
	if _, ok := b.Records[0].Event.(*model.Unreadable); !ok {
		t.Fatalf("record %s is not unreadable", b.Records[0].Raw)
	}
	e, _ := tailEvent(3)
	appendFile(t, path, "\"}\n"+e+"\n")
	b = tl.next()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Records) != 1 || b.Records[0].Seq != 4 || b.End != int64(len(data)) {
		t.Fatalf("%d records ending at %d, want record 4 ending at %d", len(b.Records), b.End, len(data))
	}
	from, err := TailStartAt(path, b.End, 4)
	if err != nil {
		t.Fatal(err)
	}
	e5, _ := tailEvent(4)
	appendFile(t, path, e5+"\n")
	again := startBatchTail(t, path, &from, maxEvent)
	if b := again.next(); b.Restart || len(b.Records) != 1 || b.Records[0].Seq != 5 || string(b.Records[0].Raw) != e5 {
		t.Fatalf("taken up: restart %v, %d records", b.Restart, len(b.Records))
	}
}

// sendHeld runs the tail of tl, which holds what it read already, and
// returns the first n batches it sends.
func sendHeld(t *testing.T, tl *tailer, n int) []model.Batch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, events, done := make(chan model.Batch), make(chan TailEvent), make(chan struct{})
	go func() {
		defer close(done)
		runTail(ctx, tl, out, events,
			func(recs []model.Record, restart bool, p tailProgress) model.Batch {
				return model.Batch{Records: recs, Restart: restart, End: p.end}
			},
			func(e TailEvent) TailEvent { return e }, true)
	}()
	defer func() { cancel(); <-done }()
	var got []model.Batch
	for len(got) < n {
		select {
		case b := <-out:
			got = append(got, b)
		case <-events:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d batches of %d", len(got), n)
		}
	}
	return got
}

// A batch held back ends where its own last record does: records read
// before a restart end in the old file, a last line taken whole when the
// file is let go ends the file, and an oversized line's record ends with
// the line once its end is read before the batch goes.
func TestTailEndHeldBatches(t *testing.T) {
	a, _ := lines(0, 3)
	b, _ := lines(10, 12)
	ev3, _ := tailEvent(3)
	big := `{"type":"CUSTOM","value":"` + strings.Repeat("x", 300)
	type want struct {
		recs    int
		restart bool
		end     int
	}
	cases := []struct {
		name   string
		first  string
		change func(t *testing.T, path string)
		want   []want
	}{
		{"truncated", a, func(t *testing.T, path string) { writeFile(t, path, []byte(b)) },
			[]want{{3, false, len(a)}, {0, true, 0}, {2, false, len(b)}}},
		{"rotated with a partial line", a + ev3, func(t *testing.T, path string) {
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
			writeFile(t, path, []byte(b))
		}, []want{{4, false, len(a + ev3)}, {0, true, 0}, {2, false, len(b)}}},
		{"oversized line", a + big, func(t *testing.T, path string) { appendFile(t, path, "\"}\n") },
			[]want{{4, false, len(a+big) + 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.jsonl")
			writeFile(t, path, []byte(c.first))
			tl := newTailer(path, TailOptions{Poll: time.Hour, MaxEventBytes: 200})
			tl.check()
			c.change(t, path)
			tl.check()
			got := sendHeld(t, tl, len(c.want))
			for i, w := range c.want {
				if g := got[i]; len(g.Records) != w.recs || g.Restart != w.restart || g.End != int64(w.end) {
					t.Fatalf("batch %d: %d records, restart %v, end %d; want %+v", i, len(g.Records), g.Restart, g.End, w)
				}
			}
		})
	}
}

// The record that says an array broke has no End: nothing after the break
// is read, so nothing may take the file up there. The records before it
// end where they did.
func TestTailEndBrokenArray(t *testing.T) {
	e0, _ := tailEvent(0)
	e1, _ := tailEvent(1)
	path := filepath.Join(t.TempDir(), "run.json")
	writeFile(t, path, []byte("["+e0+",\n"+e1))
	tl := startBatchTail(t, path, nil, 0)
	tl.until(2)
	if end := tl.batches[len(tl.batches)-1].End; end != int64(len("["+e0+",\n"+e1)) {
		t.Fatalf("the batch of two events ends at %d", end)
	}
	appendFile(t, path, `, x {"type":"RUN_FINISHED"}`)
	if b := tl.next(); len(b.Records) != 1 || b.End != 0 {
		t.Fatalf("the break: %d records ending at %d; want one, at 0", len(b.Records), b.End)
	}
	if _, ok := tl.recs[2].Event.(*model.Unreadable); !ok {
		t.Fatalf("record 3 is %s, not the break", tl.recs[2].Raw)
	}
}
