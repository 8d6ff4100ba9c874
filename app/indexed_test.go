package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
)

// A player seeks and plays while the rest of the file is indexed on another
// goroutine, and ends up with the fold of the whole log (run with -race).
func TestReplayWhileIndexing(t *testing.T) {
	data := loggen.Generate(30_000, 3)
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	log, ixr, done, err := openIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.file.Close()
	if done || log.Len() != firstChunk {
		t.Fatalf("first chunk: %d records, done %v; want %d and more to come", log.Len(), done, firstChunk)
	}
	tl, err := newTimeline(log, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sched := replay.NewSchedule(log, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap})
	p := replay.NewPlayer(log, tl, sched, replay.PlayerOptions{})
	finished := make(chan error, 1)
	go func() {
		finished <- (&indexing{log: log, ixr: ixr, sched: sched, tl: tl}).run(context.Background())
	}()
	for i := 0; ; i++ {
		select {
		case err := <-finished:
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Seek(p.Len()); err != nil {
				t.Fatal(err)
			}
			want, err := sources.ReadAll(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			// The player sheds where the timeline takes checkpoints.
			ts := fold.NewThreads(fold.Options{})
			for i := 0; i < len(want); i += tl.Every() {
				j := min(len(want), i+tl.Every())
				ts.Apply("", want[i:j]...)
				if j%tl.Every() == 0 {
					replay.ShedForCheckpoint(ts)
				}
			}
			f := ts.Last().Fold
			if p.Len() != len(want) {
				t.Fatalf("player has %d records, the log %d", p.Len(), len(want))
			}
			a, _ := f.Export()
			b, _ := p.Fold().Export()
			if !bytes.Equal(a.State, b.State) {
				t.Fatal("the fold at the end differs from folding the whole log, shedding where the timeline does")
			}
			return
		default:
		}
		if _, err := p.Seek((i * 7919) % (p.Len() + 1)); err != nil {
			t.Fatal(err)
		}
	}
}

// The spacing of a big file's checkpoints grows with the file, so that it
// keeps about checkpointBudget of them; small files keep the default.
func TestCheckpointEvery(t *testing.T) {
	for _, c := range []struct {
		size int64
		per  float64
		want int
	}{
		{0, 180, replay.DefaultCheckpointEvery},
		{1 << 20, 180, replay.DefaultCheckpointEvery},
		{126_000_000, 180, replay.DefaultCheckpointEvery},
		{1_000_000_000, 180, 21701},
		{126_000_000, 0, replay.DefaultCheckpointEvery},
	} {
		if got := checkpointEvery(c.size, c.per); got != c.want {
			t.Errorf("checkpointEvery(%d, %v) = %d, want %d", c.size, c.per, got, c.want)
		}
	}
	data := loggen.Generate(20_000, 3)
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	log, _, done, err := openIndexed(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.file.Close()
	ix := log.index()
	if done || ix.End() <= 0 || ix.End() > int64(len(data)) {
		t.Fatalf("index of the first chunk ends at %d of %d bytes (done %v)", ix.End(), len(data), done)
	}
}
