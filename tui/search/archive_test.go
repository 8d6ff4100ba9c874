package search_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui/search"
)

// smallKeep sheds a log of a few thousand events many times over.
var smallKeep = fold.Keep{Items: 100, Content: 15, Skeletons: 40, Tombstones: fold.TombstonesRecent}

// everything is what a search of a shed thread finds: the hits among the
// items kept and every hit of the archive, merged in Seq order.
func everything(th screenThread, m search.Matcher, prev *search.Scan) ([]search.Hit, *search.Scan) {
	hits, live := search.FindKept(th.fold.Items(), th.steps, m, nil, th.archive)
	scan := th.archive.Scan(m, live, prev)
	for !scan.Done() {
		hits = append(hits, scan.Next(1<<10)...)
	}
	slices.SortFunc(hits, func(a, b search.Hit) int { return int(a.Seq) - int(b.Seq) })
	return hits, scan
}

// A thread shed as the screen sheds it is searched as the fold that kept
// everything: the items kept and the archive of what went give the same
// hits, in the same order, for every prefix of a word typed letter by
// letter (each narrowing the one before), in any case, and for words the
// filter over trigrams must not refuse.
func TestArchiveFindsWhatWasShed(t *testing.T) {
	log := loggen.Generate(6_000, 6)
	th := foldAsScreen(t, log, smallKeep, 300)
	if th.fold.Shedded().Items == 0 || th.archive.Empty() {
		t.Fatal("the thread was not shed")
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	whole := fold.New(fold.Options{})
	whole.Apply(recs...)
	for _, word := range []string{"goroutine", "Goroutine", "GOROUTINE", "naïve", "NAÏVE", "日本語", "json.Unmarshal", "go test ./...", "zebra", "t"} {
		var prev *search.Scan
		for n := range len(word) + 1 {
			if n == 0 || n < len(word) && word[n]>>6 == 2 {
				continue
			}
			m := search.NewMatcher(word[:n])
			want := search.Find(whole.Items(), whole.Steps(), m, nil)
			var got []search.Hit
			got, prev = everything(th, m, prev)
			if !slices.Equal(got, want) {
				t.Fatalf("%q: %d hits, want %d (first %v, want %v)", word[:n], len(got), len(want), head(got), head(want))
			}
		}
	}
}

func head(h []search.Hit) []search.Hit { return h[:min(3, len(h))] }

// First and Last find the match of least and greatest Seq in a range,
// whichever block holds it, and nothing outside the range.
func TestArchiveFirstInRange(t *testing.T) {
	log := loggen.Generate(6_000, 6)
	th := foldAsScreen(t, log, smallKeep, 300)
	m := search.NewMatcher("goroutine")
	all, _ := everything(th, m, nil)
	_, live := search.FindKept(th.fold.Items(), th.steps, m, nil, th.archive)
	scan := th.archive.Scan(m, live, nil)
	var archived []search.Hit
	for _, h := range all {
		if _, ok := slices.BinarySearch(live, h.Seq); !ok {
			archived = append(archived, h)
		}
	}
	if len(archived) < 10 {
		t.Fatalf("%d matches archived", len(archived))
	}
	for _, tc := range []struct {
		lo, hi uint64
		want   int // index in archived, -1 for none
	}{
		{0, ^uint64(0), 0},
		{archived[0].Seq + 1, ^uint64(0), 1},
		{archived[5].Seq, archived[5].Seq + 1, 5},
		{archived[5].Seq + 1, archived[6].Seq, -1},
	} {
		got, ok := scan.First(tc.lo, tc.hi)
		if tc.want < 0 {
			if ok {
				t.Errorf("[%d, %d): %v, want none", tc.lo, tc.hi, got)
			}
			continue
		}
		if !ok || got != archived[tc.want] {
			t.Errorf("[%d, %d): %v %v, want %v", tc.lo, tc.hi, got, ok, archived[tc.want])
		}
	}
	for _, tc := range []struct {
		lo, hi uint64
		want   int // index in archived, -1 for none
	}{
		{0, ^uint64(0), len(archived) - 1},
		{0, archived[len(archived)-1].Seq, len(archived) - 2},
		{archived[5].Seq, archived[5].Seq + 1, 5},
		{archived[5].Seq + 1, archived[6].Seq, -1},
	} {
		got, ok := scan.Last(tc.lo, tc.hi)
		if tc.want < 0 {
			if ok {
				t.Errorf("last in [%d, %d): %v, want none", tc.lo, tc.hi, got)
			}
			continue
		}
		if !ok || got != archived[tc.want] {
			t.Errorf("last in [%d, %d): %v %v, want %v", tc.lo, tc.hi, got, ok, archived[tc.want])
		}
	}
}

// A query that narrows another holds only its matches: not one that
// minds case less than the one before.
func TestNarrows(t *testing.T) {
	for _, tc := range []struct {
		prev, next string
		narrows    bool
	}{
		{"go", "gor", true},
		{"go", "goR", true},
		{"Go", "Gor", true},
		{"go", "go", false},
		{"go", "g", false},
		{"go", "xgo", false},
		{"", "g", false},
		{"na\xc3", "naï", false}, // a torn letter minds case; the whole one does not
	} {
		if got := search.NewMatcher(tc.next).Narrows(search.NewMatcher(tc.prev)); got != tc.narrows {
			t.Errorf("%q after %q narrows %v, want %v", tc.next, tc.prev, got, tc.narrows)
		}
	}
}

// A shelf is searched on another goroutine while the archive takes more
// text, and a scan's First runs beside its count (go test -race holds
// this).
func TestArchiveSearchedWhileItTakes(t *testing.T) {
	log := loggen.Generate(6_000, 6)
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	f := fold.New(fold.Options{})
	a := &search.Archive{}
	m := search.NewMatcher("goroutine")
	done := make(chan int)
	for i := 0; i < len(recs); i += 300 {
		f.Apply(recs[i:min(i+300, len(recs))]...)
		scan := a.Scan(m, nil, nil)
		go func() {
			first := make(chan bool)
			go func() { _, ok := scan.First(0, ^uint64(0)); first <- ok }()
			n := 0
			for !scan.Done() {
				n += len(scan.Next(1 << 10))
			}
			if ok := <-first; ok != (n > 0) {
				n = -1
			}
			done <- n
		}()
		a.Take(f.Items(), f.Steps(), f.StepBase())
		if len(f.Items()) >= 2*smallKeep.Items {
			f.Trim(smallKeep)
		}
		if n := <-done; n < 0 {
			t.Fatal("First and the count disagree on whether there is a match")
		}
	}
}
