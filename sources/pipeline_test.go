package sources

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

func TestBatchesEqualNext(t *testing.T) {
	log := loggen.Generate(3000, 7)
	// A bad line in the middle must come out in its place, numbered.
	log = append(log[:len(log)/2:len(log)/2], append([]byte("{not json\n"), log[len(log)/2:]...)...)
	want, err := ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 7, 512, 100000} {
		ch, wait := Batches(context.Background(), NewReader(bytes.NewReader(log)), size)
		var got []model.Record
		for b := range ch {
			if len(b) == 0 || len(b) > size {
				t.Fatalf("size %d: batch of %d", size, len(b))
			}
			got = append(got, b...)
		}
		if err := wait(); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if len(got) != len(want) {
			t.Fatalf("size %d: %d records, Next gives %d", size, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("size %d: record %d differs:\n got %#v\nwant %#v", size, i, got[i], want[i])
			}
		}
	}
}

type failingAfter struct {
	data []byte
	err  error
}

func (f *failingAfter) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestBatchesReportsReadError(t *testing.T) {
	boom := errors.New("disk gone")
	in := &failingAfter{data: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n"), err: boom}
	ch, wait := Batches(context.Background(), NewReaderFormat(in, FormatJSONL), 10)
	n := 0
	for b := range ch {
		n += len(b)
	}
	if err := wait(); !errors.Is(err, boom) || n != 1 {
		t.Fatalf("records %d, err %v", n, err)
	}
}

func TestBatchesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReader(io.MultiReader(strings.NewReader(strings.Repeat(`{"type":"CUSTOM","name":"x","value":1}`+"\n", 100000))))
	ch, wait := Batches(ctx, r, 10)
	<-ch
	cancel()
	for range ch {
	}
	if err := wait(); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// A stream that trickles in (a pipe, one event at a time) has each event
// sent on as it arrives: the test writes the next event only once the one
// before has come out, which would wait forever on a batch that waits to
// fill. In every format, whole events and an event cut in two writes.
func TestBatchesTrickle(t *testing.T) {
	events := strings.Split(strings.TrimSpace(string(loggen.Generate(40, 2))), "\n")
	for _, form := range []string{"jsonl", "sse", "array"} {
		t.Run(form, func(t *testing.T) {
			pr, pw := io.Pipe()
			ch, wait := Batches(context.Background(), NewReader(pr), 512)
			got := 0
			for i, ev := range events {
				var chunk string
				switch form {
				case "jsonl":
					chunk = ev + "\n"
				case "sse":
					chunk = "data: " + ev + "\n\n"
				case "array":
					chunk = ev
					if i == 0 {
						chunk = "[" + ev
					} else {
						chunk = ",\n" + ev
					}
				}
				if i%5 == 3 { // an event that arrives in two writes
					half := len(chunk) / 2
					go func() { pw.Write([]byte(chunk[:half])); pw.Write([]byte(chunk[half:])) }()
				} else {
					go pw.Write([]byte(chunk))
				}
				select {
				case b := <-ch:
					got += len(b)
					if got != i+1 {
						t.Fatalf("after event %d came %d records", i+1, got)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("event %d never came out while the stream waited for more", i+1)
				}
			}
			pw.Close()
			for b := range ch {
				got += len(b)
			}
			if err := wait(); err != nil || got != len(events) {
				t.Fatalf("%d records of %d, %v", got, len(events), err)
			}
		})
	}
}
