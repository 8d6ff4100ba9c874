package app

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// --plain gives memory back once when the source goes quiet after a
// burst, not after a trickle of records since, and goes on printing while
// it gives back.
func TestPlainGivesMemoryBackWhenQuiet(t *testing.T) {
	var recs []model.Record
	r := sources.NewReader(bytes.NewReader(loggen.Generate(plainBurst+500, 3)))
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		recs = append(recs, rec)
	}
	burst, trickle := recs[:len(recs)-20], recs[len(recs)-20:]

	mem := newPlainMemory(plainDefaults)
	fire := make(chan time.Time)
	released := make(chan struct{}, 8)
	mem.giveBack.quiet = func() <-chan time.Time { return fire }
	givingBack := make(chan struct{})
	defer close(givingBack)
	mem.giveBack.release = func() {
		released <- struct{}{}
		<-givingBack // still giving back when the next records come
	}
	in := make(chan model.Batch)
	done := make(chan error, 1)
	go func() {
		done <- printLinesKeeping(&Options{Stdout: io.Discard}, fold.NewThreads(fold.Options{}), in, false, mem)
	}()
	for len(burst) > 0 {
		n := min(len(burst), 97)
		in <- model.Batch{Source: "log", Records: burst[:n]}
		burst = burst[n:]
	}
	select {
	case fire <- time.Time{}:
	case <-time.After(10 * time.Second):
		t.Fatalf("after a burst of %d records, --plain never waited for the source to go quiet", len(recs)-len(trickle))
	}
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the source went quiet after a burst and no memory was given back")
	}
	select {
	case in <- model.Batch{Source: "log", Records: trickle}:
	case <-time.After(10 * time.Second):
		t.Fatal("--plain took no record while it gave memory back")
	}
	close(in)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if mem.giveBack.released != 1 || len(released) != 0 {
		t.Fatalf("memory given back %d times (%d more calls); want once, after the burst", mem.giveBack.released, len(released))
	}
}
