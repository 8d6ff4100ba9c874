package app

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
				ts, from, ok := store.load(path, opts, fold.Options{})
				if ok != (c.name == "as kept") || ok && (ts == nil || from == nil) {
					t.Fatalf("taken up: %v", ok)
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
		if _, from, ok := store.load(path, opts, fold.Options{}); ok && (from.Offset <= 0 || from.Offset > info.Size() || from.Seq > uint64(from.Offset)) {
			t.Fatalf("taken up at %d, record %d, in a log of %d bytes", from.Offset, from.Seq, info.Size())
		}
	})
}
