package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// An ACP recording is an event log: it is followed and read as it goes
// (its first batches come with their progress, before the end), folded as
// it is read, and a step is read back from its index, each giving what
// reading the recording whole gives.
func TestACPRecordingIsAnEventLog(t *testing.T) {
	var log bytes.Buffer
	if err := hostile.ACPTurn(&log, 0, 4000); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := sources.ReadACPRecording(bytes.NewReader(log.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	whole := fold.New(fold.Options{})
	whole.Apply(want...)

	a := New(&Options{})
	src, err := a.Identify(path)
	if err != nil || src.Kind != KindEventLog || src.Records != nil {
		t.Fatalf("Identify: %v, %v (%d records read whole)", src.Kind, err, len(src.Records))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := a.OpenStream(ctx, src, sources.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []model.Record
	progress := 0
	for b := range st.Batches {
		got = append(got, b.Records...)
		if b.Size == int64(log.Len()) && b.Read < b.Size {
			progress++
		}
		if len(got) >= len(want) {
			break
		}
	}
	if progress == 0 {
		t.Error("no batch said how far the file was read before its end")
	}
	if len(got) != len(want) {
		t.Fatalf("the stream gave %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("record %d:\n got  %+v\n want %+v", i+1, got[i], want[i])
		}
	}

	ts, _, err := a.FoldThreads(src)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 1 || !reflect.DeepEqual(ts.List()[0].Fold.Summary(), whole.Summary()) {
		t.Fatalf("folded as it was read, the recording differs from its whole fold (%d threads)", ts.Len())
	}

	th := ts.List()[0]
	read := stepReader(New(&Options{}), func(s string) string { return s })
	step, err := read(path, th.ID, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if w := whole.Steps()[1]; step.Status != w.Status || step.Result != w.Result || step.ToolCallID != w.ToolCallID {
		t.Fatalf("step 2 read back: %s %q %q, want %s %q %q", step.Status, step.ToolCallID, step.Result, w.Status, w.ToolCallID, w.Result)
	}
}
