package tui

import (
	"bytes"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

var (
	bigScreenOnce sync.Once
	bigScreen     *threadsApp
)

// screen700k is a 160×48 screen of loggen's 700,000-event thread (126
// MB), fed 5,000 records a batch as a file is read, shedding as it goes
// (window.ScreenKeep), made once.
func screen700k(b *testing.B) *threadsApp {
	b.Helper()
	bigScreenOnce.Do(func() {
		recs, err := sources.ReadAll(bytes.NewReader(loggen.Generate(700_000, 1)))
		if err != nil {
			b.Fatal(err)
		}
		bigScreen = newThreadsApp(b, 160, 48, AppOptions{})
		for i := 0; i < len(recs); i += 5000 {
			bigScreen.feed(b, model.Batch{Source: "big.jsonl", Records: recs[i:min(i+5000, len(recs))]})
		}
	})
	return bigScreen
}

// BenchmarkSearchKeystroke700k types a word letter by letter into / on
// the screen of the 700,000-event thread, its cursor on the newest item,
// and reports per keystroke: first-ms, from the key to the screen gone to
// its first match (the key's Update, the search of the archive for the
// first match, and that message's Update; the match found in what was
// shed is then read back, which this screen without a file does not);
// worst-first-ms, the slowest keystroke's; count-ms, to every match
// counted, the count's commands run one after another on this goroutine
// (the program runs them beside the screen). Sub-benchmarks: a common
// word, a rarer one, one that is nowhere.
//
//	go test ./tui/ -run '^$' -bench SearchKeystroke700k -benchtime 3x
func BenchmarkSearchKeystroke700k(b *testing.B) {
	d := screen700k(b)
	for _, word := range []struct{ name, word string }{
		{"common", "goroutine"}, {"rare", "naïve"}, {"absent", "zebra"},
	} {
		b.Run(word.name, func(b *testing.B) {
			var first, all, worst time.Duration
			keys := 0
			for b.Loop() {
				d.press("esc", "esc", "end")
				d.openSearch()
				for _, r := range word.word {
					start := time.Now()
					_, cmd := d.Update(keyPress(string(r)))
					var found time.Duration
					settleTimed(d.App, cmd, func() { found = time.Since(start) })
					if found == 0 { // nothing to go to: the count said so
						found = time.Since(start)
					}
					all += time.Since(start)
					first += found
					worst = max(worst, found)
					keys++
				}
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(keys), "first-ms")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-first-ms")
			b.ReportMetric(float64(all.Microseconds())/1000/float64(keys), "count-ms")
			b.ReportMetric(float64(len(d.search.hits)), "matches")
		})
	}
}

// settleTimed is settle, calling found once the first match was gone to.
func settleTimed(a *App, cmd tea.Cmd, found func()) {
	if cmd == nil {
		return
	}
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			settleTimed(a, c, found)
		}
	case searchFirstMsg:
		_, next := a.Update(m)
		found()
		settleTimed(a, next, found)
	case searchCountMsg:
		_, next := a.Update(m)
		settleTimed(a, next, found)
	}
}
