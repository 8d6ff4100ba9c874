package search_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/window"
)

// screenThread is a thread folded as the screen folds it, in batches,
// trimmed to window.ScreenKeep whenever it holds twice its items, its
// archive taking what each trim lets go of: the fold, its steps as the
// screen draws them (stand-ins for the forgotten), and the archive.
type screenThread struct {
	fold    *fold.Fold
	steps   []*model.Step
	archive *search.Archive
	// taking is the time the archive took to take its text, folding the
	// time the fold took to fold the records.
	taking, folding time.Duration
}

var (
	bigThreadOnce sync.Once
	bigThread     screenThread
)

// thread700k is loggen's 700,000-event thread (126 MB) as the screen holds
// it, made once.
func thread700k(b *testing.B) screenThread {
	b.Helper()
	bigThreadOnce.Do(func() { bigThread = foldAsScreen(b, loggen.Generate(700_000, 1), window.ScreenKeep, 5000) })
	return bigThread
}

// foldAsScreen folds log as the screen does, batch records at a time,
// trimming to keep.
func foldAsScreen(tb testing.TB, log []byte, keep fold.Keep, batch int) screenThread {
	tb.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		tb.Fatal(err)
	}
	f := fold.New(fold.Options{})
	w := window.New(window.Options{Keep: keep})
	a := &search.Archive{}
	th := screenThread{fold: f, archive: a}
	for i := 0; i < len(recs); i += batch {
		start := time.Now()
		f.Apply(recs[i:min(i+batch, len(recs))]...)
		th.folding += time.Since(start)
		if len(f.Items()) >= 2*keep.Items {
			start = time.Now()
			a.Take(f.Items(), f.Steps(), f.StepBase())
			th.taking += time.Since(start)
			f.Trim(keep)
		}
	}
	th.steps = w.Steps(f)
	return th
}

// BenchmarkSearch700k types a word letter by letter into / on the 700,000-
// event thread as the screen holds it (2,000–4,000 items kept, the rest
// in the archive) and reports, per keystroke: first-ms, from the key to
// its first match found (the kept items searched on the screen's
// goroutine, then the archive from the first item on, as the search
// wraps from a cursor at the newest item), and count-ms, to every match
// counted. It logs what the archive keeps and the time it took to take
// the text against the fold's. Each word is one sub-benchmark: common (a word of most
// messages), rare (in a few items) and absent.
//
//	go test ./tui/search/ -run '^$' -bench Search700k -benchtime 3x
func BenchmarkSearch700k(b *testing.B) {
	th := thread700k(b)
	text, kept := th.archive.Cost()
	b.Logf("archive: %.1f MiB of text kept in %.1f MiB; taking it took %v, folding %v", float64(text)/(1<<20), float64(kept)/(1<<20), th.taking, th.folding)
	for _, word := range []struct{ name, word string }{
		{"common", "goroutine"}, {"rare", "naïve"}, {"absent", "zebra"},
	} {
		b.Run(word.name, func(b *testing.B) {
			var first, all, worst time.Duration
			keys, matches := 0, 0
			for b.Loop() {
				var prev *search.Scan
				for n := range len(word.word) + 1 {
					if n == 0 || n < len(word.word) && word.word[n]>>6 == 2 {
						continue // typed a letter at a time, not a byte
					}
					start := time.Now()
					m := search.NewMatcher(word.word[:n])
					hits, live := search.FindKept(th.fold.Items(), th.steps, m, nil, th.archive)
					scan := th.archive.Scan(m, live, prev)
					origin := th.fold.ItemsMade()
					if _, ok := firstOf(hits, origin); !ok {
						if h, ok := scan.First(origin, ^uint64(0)); !ok {
							scan.First(0, origin)
						} else {
							_ = h
						}
					}
					first += time.Since(start)
					worst = max(worst, time.Since(start))
					for !scan.Done() {
						hits = append(hits, scan.Next(4<<20)...)
					}
					all += time.Since(start)
					keys++
					matches = len(hits)
					prev = scan
				}
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(keys), "first-ms")
			b.ReportMetric(float64(all.Microseconds())/1000/float64(keys), "count-ms")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-first-ms")
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

// firstOf is the first hit at or after origin.
func firstOf(hits []search.Hit, origin uint64) (search.Hit, bool) {
	for _, h := range hits {
		if h.Seq >= origin {
			return h, true
		}
	}
	return search.Hit{}, false
}
