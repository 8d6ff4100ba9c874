package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// keptPoint writes a log (JSON Lines, or a JSON array), shows it as a
// screen does until that keeps its resume point, and returns the log's
// path, its options, and the point as it was kept.
func keptPoint(t testing.TB, array bool) (string, *Options, []byte) {
	t.Helper()
	log := loggen.Generate(1_500, 70)
	if array {
		log = loggen.ToArray(log)
	}
	path := filepath.Join(t.TempDir(), "run.log")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	a := smallResume(t)
	rv := a.resumeFor(identified(t, path))
	_, ch, _ := followTo(t, rv, path, int64(len(bytes.TrimSuffix(log, []byte("\n]\n")))))
	screenOf(t, rv, a, nil, ch)
	b, err := os.ReadFile(rv.store.file(path))
	if err != nil {
		t.Fatal(err)
	}
	return path, a.Options, b
}

// A resume point is not trusted: one whose offset, record numbers or size
// cannot be those of a save of this log is ignored, and the log is read
// from its start, as if nothing had been kept.
func TestResumeIgnoresAForgedPoint(t *testing.T) {
	for _, array := range []bool{false, true} {
		path, opts, kept := keptPoint(t, array)
		log, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		store := newResumeStore(opts.CacheDir)
		forge := func(change func(p *resumePoint)) []byte {
			var p resumePoint
			if err := json.Unmarshal(kept, &p); err != nil {
				t.Fatal(err)
			}
			change(&p)
			b, err := json.Marshal(&p)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		// at moves the point to offset, with the head and the mark the
		// file has there: only where it is tells it is not a save's.
		at := func(offset int64) func(p *resumePoint) {
			return func(p *resumePoint) {
				p.Offset = offset
				p.Mark = bytes.Clone(log[offset-min(offset, 64) : offset])
			}
		}
		// folded changes the first thread's fold as kept.
		folded := func(change func(st map[string]any)) func(p *resumePoint) {
			return func(p *resumePoint) {
				var st map[string]any
				if err := json.Unmarshal(p.Threads.Threads[0].Fold.State, &st); err != nil {
					t.Fatal(err)
				}
				change(st)
				b, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				p.Threads.Threads[0].Fold.State = b
			}
		}
		display := func(st map[string]any) map[string]any { return st["display"].(map[string]any) }
		mid := int64(len(log) / 2)
		for mid < int64(len(log)) && log[mid] != '"' {
			mid++ // inside an event, after a quote: no record's end
		}
		cases := []struct {
			name string
			b    []byte
		}{
			{"as kept", kept},
			{"inside an event", forge(at(mid + 1))},
			{"past the end", forge(func(p *resumePoint) { p.Offset = int64(len(log)) + 10 })},
			{"before the start", forge(func(p *resumePoint) { p.Offset = -5 })},
			{"more records than bytes", forge(func(p *resumePoint) { p.Seq = uint64(p.Offset) + 1 })},
			{"numbered behind its threads", forge(func(p *resumePoint) { p.Seq = p.Threads.Threads[0].LastSeq - 1 })},
			{"numbered at the very end", forge(func(p *resumePoint) { p.Seq = 1<<64 - 1 })},
			{"bigger than any save", append(bytes.Clone(kept[:len(kept)-1]), append(bytes.Repeat([]byte(" "), resumeMaxFloor), '}')...)},
			{"a wild step base", forge(folded(func(st map[string]any) { display(st)["stepBase"] = 1 << 40 }))},
			{"forgotten steps without sketches", forge(folded(func(st map[string]any) { display(st)["stepBase"] = 1000 }))},
			{"a wild item count", forge(folded(func(st map[string]any) { st["nextItem"] = uint64(1) << 50 }))},
			{"more records than read", forge(func(p *resumePoint) { p.Threads.Threads[0].Records = int(p.Seq) + 1 })},
			{"not an object", []byte(`[1, 2, 3]`)},
			{"not JSON", []byte("\x00\xff{")},
			{"empty", nil},
		}
		for _, c := range cases {
			name := c.name
			if array {
				name = "array/" + name
			}
			t.Run(name, func(t *testing.T) {
				if err := os.WriteFile(store.file(path), c.b, 0o600); err != nil {
					t.Fatal(err)
				}
				ts, from, err := store.take(path, opts, fold.Options{})
				if ok := err == nil; ok != (c.name == "as kept") || ok && (ts == nil || from == nil) {
					t.Fatalf("taken up: %v", ok)
				}
				// A point past the end is what a log cut shorter leaves: not
				// damaged, only stale.
				if c.name != "as kept" && c.name != "past the end" && errors.Is(err, errResumeStale) {
					t.Fatalf("refused as a point of another build or log, not as damaged: %v", err)
				}
			})
		}
	}
}

// FuzzResumeLoad loads any bytes as the resume point of a log: it never
// panics, and what it takes up is a point of the log as it is.
func FuzzResumeLoad(f *testing.F) {
	path, opts, kept := keptPoint(f, false)
	f.Add(kept)
	f.Add([]byte(`{"version":1,"offset":-1}`))
	store := newResumeStore(opts.CacheDir)
	info, err := os.Stat(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(store.file(path), b, 0o600); err != nil {
			t.Fatal(err)
		}
		ts, from, ok := store.load(path, opts, fold.Options{})
		if ok && (from.Offset <= 0 || from.Offset > info.Size() || from.Seq > uint64(from.Offset)) {
			t.Fatalf("taken up at %d, record %d, in a log of %d bytes", from.Offset, from.Seq, info.Size())
		}
		if ok {
			for _, th := range ts.List() {
				if n := int64(th.Fold.StepCount()); n > from.Offset {
					t.Fatalf("taken up with %d steps from %d bytes", n, from.Offset)
				}
			}
		}
	})
}

// A damaged resume point is not taken up, and the screen says so: the log
// is read from its start, with a note in the title bar of why.
func TestResumeSaysAPointIsDamaged(t *testing.T) {
	path, opts, kept := keptPoint(t, false)
	var p resumePoint
	if err := json.Unmarshal(kept, &p); err != nil {
		t.Fatal(err)
	}
	p.Seq = uint64(p.Offset) + 1
	b, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	a := smallResume(t)
	a.CacheDir = opts.CacheDir
	rv := a.resumeFor(identified(t, path))
	if err := os.WriteFile(rv.store.file(path), b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	batches, status := rv.follow(ctx, &Options{}, path)
	if taken := <-rv.taken; taken != nil {
		t.Fatal("a damaged point is taken up")
	}
	close(rv.shown)
	go func() {
		for range batches {
		}
	}()
	for s := range status {
		if strings.Contains(s, "damaged") {
			return
		}
	}
	t.Fatal("the title bar does not say the kept point is damaged")
}

// Two programs that show one log keep where they left off in the same
// place: each writes its point whole, beside it, and renames it there, so
// a screen that opens the log meanwhile takes up one of them or none,
// never a point half written.
func TestResumeTwoSavesOfOneLog(t *testing.T) {
	path, recs, _ := generatedLog(t, 3_000, 12)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	a := smallResume(t)
	b := smallResume(t)
	b.CacheDir = a.CacheDir
	store := newResumeStore(a.CacheDir)
	whole := func() *fold.Threads {
		ts := fold.NewThreads(fold.Options{})
		ts.Apply(path, recs...)
		return ts
	}
	done := make(chan error, 2)
	for _, app := range []*App{a, b} {
		go func() {
			for range 5 {
				if err := store.save(path, whole(), st.Size(), uint64(len(recs)), app); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for running := 2; running > 0; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running--
		default:
			if _, _, err := store.take(path, a.Options, fold.Options{}); err != nil && !errors.Is(err, errResumeStale) {
				t.Fatalf("a screen took up a point another wrote: %v", err)
			}
		}
	}
	if _, _, ok := store.load(path, a.Options, fold.Options{}); !ok {
		t.Fatal("nothing kept")
	}
}
