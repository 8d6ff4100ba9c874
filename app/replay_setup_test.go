package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
)

// generatedLog writes loggen's log of n events (of seed) to a file and
// returns its path, its records and their fold, which never shed.
func generatedLog(tb testing.TB, n int, seed int64) (string, []model.Record, *fold.Fold) {
	tb.Helper()
	log := loggen.Generate(n, seed)
	path := filepath.Join(tb.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		tb.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		tb.Fatal(err)
	}
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	return path, recs, whole
}

// indexedReplay sets a replay of the file at path up as Replay does, and
// indexes and folds it to its end: its log (closed when the test ends),
// timeline and schedule.
func indexedReplay(tb testing.TB, path string) (*indexedLog, *replay.Timeline, *replay.Schedule) {
	tb.Helper()
	log, ixr, done, err := openIndexed(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { log.file.Close() })
	tl, err := newTimeline(log, fold.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	sched := replay.NewSchedule(log, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap})
	if !done {
		if err := (&indexing{log: log, ixr: ixr, sched: sched, tl: tl}).run(context.Background()); err != nil {
			tb.Fatal(err)
		}
	}
	return log, tl, sched
}
