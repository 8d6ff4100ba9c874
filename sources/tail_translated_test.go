package sources

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// sessionFixtures are the agents' own session files the tail translates.
var sessionFixtures = map[string]string{"claude": claudeFixture, "codex": codexFixture, "copilot": copilotFixture, "gemini": geminiFixture}

// sessionWhole is a fixture session read whole, as `steps` reads it.
func sessionWhole(t *testing.T, path string) ([]byte, []model.Record) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return data, recs
}

// sameSessionRecords checks that got are want, but for the arrival time a
// tail gives a record without one of its own (a title line has none).
func sameSessionRecords(t *testing.T, got, want []model.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Seq != w.Seq || !bytes.Equal(g.Raw, w.Raw) || g.Thread != w.Thread || g.Proto != w.Proto ||
			g.Event.EventType() != w.Event.EventType() || (!w.At.IsZero() && !g.At.Equal(w.At)) {
			t.Fatalf("record %d:\n got %d %s %q %v %s\nwant %d %s %q %v %s", i, g.Seq, g.Event.EventType(), g.Thread, g.At, g.Raw,
				w.Seq, w.Event.EventType(), w.Thread, w.At, w.Raw)
		}
	}
}

// foldedThreads is the export of recs folded as one source, each record
// given its time in want (so arrival times do not count).
func foldedThreads(t *testing.T, recs, want []model.Record) string {
	t.Helper()
	recs = append([]model.Record(nil), recs...)
	for i := range recs {
		recs[i].At = want[i].At
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("session", recs...)
	snap, err := ts.Export()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A session file (Claude Code's, Codex's, Copilot's) appended line by
// line, each line torn in two and looked at between its halves, gives the
// records and the threads of the session read whole: a torn line waits for
// its end, and each whole line's records are there as soon as it is.
func TestTailSessionLineByLine(t *testing.T) {
	for name, fixture := range sessionFixtures {
		t.Run(name, func(t *testing.T) { tailLineByLine(t, fixture) })
	}
}

func tailLineByLine(t *testing.T, fixture string) {
	data, whole := sessionWhole(t, fixture)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeFile(t, path, nil)
	tl := newTailer(path, TailOptions{Poll: time.Hour})
	tl.check()
	var got []model.Record
	take := func() {
		got = append(got, tl.pending...)
		tl.pending = nil
	}
	lns := bytes.SplitAfter(data, []byte("\n"))
	for k, ln := range lns {
		if len(ln) == 0 {
			continue
		}
		cut := len(ln) / 3
		if k%2 == 1 {
			cut = len(ln) - 1 // all but the newline
		}
		appendFile(t, path, string(ln[:cut]))
		tl.check()
		if len(tl.pending) > 0 {
			t.Fatalf("line %d torn: %d records before its end", k+1, len(tl.pending))
		}
		appendFile(t, path, string(ln[cut:]))
		tl.check()
		take()
	}
	if tl.format != tailTranslated {
		t.Fatalf("tail format %d, want a translated one", tl.format)
	}
	sameSessionRecords(t, got, whole)
	if a, b := foldedThreads(t, got, whole), foldedThreads(t, whole, whole); a != b {
		t.Fatalf("folded tail differs from the whole read:\n%s\n%s", a, b)
	}
}

// A session file is taken up at the end of any line that made a record:
// the translator is read up to there again, so the records after it are
// those of the whole read. Truncated and written again, it starts over with
// a fresh translator.
func TestTailSessionTakeUpAndRestart(t *testing.T) {
	for name, fixture := range sessionFixtures {
		t.Run(name, func(t *testing.T) { tailTakeUpAndRestart(t, fixture) })
	}
}

func tailTakeUpAndRestart(t *testing.T, fixture string) {
	data, whole := sessionWhole(t, fixture)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeFile(t, path, data)
	var cuts []batchCut
	var seq uint64
	off := 0
	for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
		off += len(ln)
		if len(ln) == 0 || ln[len(ln)-1] != '\n' {
			continue
		}
		// Count the whole read's records up to this line's end.
		recs, _ := ReadAll(bytes.NewReader(data[:off]))
		if uint64(len(recs)) != seq {
			seq = uint64(len(recs))
			cuts = append(cuts, batchCut{int64(off), seq})
		}
	}
	if len(cuts) < 10 {
		t.Fatalf("%d places to take up, want many", len(cuts))
	}
	for _, c := range cuts {
		from, err := TailStartAt(path, c.end, c.seq)
		if err != nil {
			t.Fatal(err)
		}
		tl := newTailer(path, TailOptions{Poll: time.Hour, From: &from})
		tl.check()
		if len(tl.ready) > 0 || tl.format != tailTranslated {
			t.Fatalf("at %d: not taken up (%d batches cut, format %d)", c.end, len(tl.ready), tl.format)
		}
		sameSessionRecords(t, tl.pending, whole[c.seq:])
	}

	tl := newTailer(path, TailOptions{Poll: time.Hour})
	tl.check()
	first := tl.pending
	tl.pending = nil
	sameSessionRecords(t, first, whole)
	half := data[:bytes.LastIndexByte(data[:len(data)/2], '\n')+1]
	writeFile(t, path, half)
	tl.check()
	writeFile(t, path, data)
	tl.check()
	if len(tl.ready) == 0 || !tl.ready[len(tl.ready)-1].restart {
		t.Fatalf("no restart after the truncation: %d batches cut", len(tl.ready))
	}
	again := append([]model.Record(nil), tl.pending...)
	for i := range again {
		again[i].Seq -= uint64(len(whole)) // numbered on across the restart
	}
	sameSessionRecords(t, again, whole)
}
