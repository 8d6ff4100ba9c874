package app

import (
	"context"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// Standard input that ends says so: its status is "stream ended" once
// every batch has gone out, so the title bar can say nothing more comes.
func TestStdinStreamSaysItEnded(t *testing.T) {
	in := make(chan []model.Record, 2)
	in <- []model.Record{{Seq: 1}}
	in <- []model.Record{{Seq: 2}}
	close(in)
	out, status := oneStream(context.Background(), "-", in)
	n := 0
	for b := range out {
		if b.Source != "-" {
			t.Errorf("batch of %q", b.Source)
		}
		n += len(b.Records)
	}
	var said []string
	for s := range status {
		said = append(said, s)
	}
	if n != 2 || len(said) != 1 || said[0] != "stream ended" {
		t.Fatalf("%d records, status %q", n, said)
	}
}
