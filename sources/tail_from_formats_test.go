package sources

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tailLayout writes tailEvent(i) as one format the tail reads: what
// opens the file, and event i (first says it is the file's first).
type tailLayout struct {
	name  string
	open  string
	event func(i int, first bool) string
}

// tailLayouts are the formats a tail reads and takes up: JSON Lines, SSE
// text, and a JSON array as a Recorder leaves it while it writes ("["
// then the events separated by ",\n", no closing bracket yet).
var tailLayouts = []tailLayout{
	{"jsonl", "", func(i int, _ bool) string { e, _ := tailEvent(i); return e + "\n" }},
	{"sse", "", func(i int, _ bool) string { e, _ := tailEvent(i); return "event: x\ndata: " + e + "\n\n" }},
	{"array", "[", func(i int, first bool) string {
		e, _ := tailEvent(i)
		if first {
			return e
		}
		return ",\n" + e
	}},
}

// log is events from to to in l's layout, the file's start when from is 0.
func (l tailLayout) log(from, to int) string {
	var b strings.Builder
	if from == 0 {
		b.WriteString(l.open)
	}
	for i := from; i < to; i++ {
		b.WriteString(l.event(i, i == 0))
	}
	return b.String()
}

// A log of every format is taken up at the End of any batch of a full
// tail: the tail goes on with the next record, numbered on, reads what is
// appended, and neither restarts nor says the file was truncated.
func TestTailFromEveryFormat(t *testing.T) {
	const n = 45_000 // 3 MB and more: batches of 1 MiB steps
	for _, l := range tailLayouts {
		t.Run(l.name, func(t *testing.T) {
			log := l.log(0, n)
			path := filepath.Join(t.TempDir(), "run.log")
			writeFile(t, path, []byte(log))
			full := startBatchTail(t, path, nil, 0)
			full.until(n)
			checkLines(t, full.recs, 1, 0)
			var cuts []batchCut
			for _, b := range full.batches {
				if len(b.Records) > 0 {
					cuts = append(cuts, batchCut{b.End, b.Records[len(b.Records)-1].Seq})
				}
			}
			if len(cuts) < 2 {
				t.Fatalf("%d batches, want several", len(cuts))
			}
			for _, c := range []batchCut{cuts[0], cuts[len(cuts)/2], cuts[len(cuts)-1]} {
				t.Run(fmt.Sprint(c.seq), func(t *testing.T) {
					path := filepath.Join(t.TempDir(), "run.log")
					writeFile(t, path, []byte(log))
					from, err := TailStartAt(path, c.end, c.seq)
					if err != nil {
						t.Fatal(err)
					}
					tl := startBatchTail(t, path, &from, 0)
					tl.until(n - int(c.seq))
					appendFile(t, path, l.log(n, n+3))
					tl.until(n + 3 - int(c.seq))
					checkLines(t, tl.recs, c.seq+1, int(c.seq))
					if len(tl.recs) != n+3-int(c.seq) {
						t.Fatalf("%d records, want %d", len(tl.recs), n+3-int(c.seq))
					}
					for _, b := range tl.batches {
						if b.Restart {
							t.Fatal("a restart batch")
						}
					}
					if slices.Contains(tl.seen, TailTruncated) {
						t.Fatal("reported truncated")
					}
				})
			}
		})
	}
}

// batchCut is where a batch of a full tail ended: its End and its last
// record's number.
type batchCut struct {
	end int64
	seq uint64
}

// A closed array taken up after its last event reads its closing bracket
// and nothing after it, as a tail that read it from its top does.
func TestTailFromClosedArray(t *testing.T) {
	l := tailLayouts[2]
	log := l.log(0, 5) + "\n]\n"
	path := filepath.Join(t.TempDir(), "run.json")
	writeFile(t, path, []byte(log))
	full := startBatchTail(t, path, nil, 0)
	full.until(5)
	last := full.batches[len(full.batches)-1]
	if want := int64(len(log) - len("\n]\n")); last.End != want {
		t.Fatalf("the last batch ends at %d, want %d (its last event's end)", last.End, want)
	}
	from, err := TailStartAt(path, last.End, 5)
	if err != nil {
		t.Fatal(err)
	}
	tl := newTailer(path, TailOptions{Poll: time.Hour, From: &from})
	tl.check()
	appendFile(t, path, l.event(5, false)+"\n") // after the bracket
	tl.check()
	if len(tl.pending) > 0 || len(tl.ready) > 0 || !tl.arrEnd || slices.Contains(tl.evq, TailTruncated) {
		t.Fatalf("taken up: %d records, %d batches cut, the array's end seen %v, events %v; want none, none, true, no truncation",
			len(tl.pending), len(tl.ready), tl.arrEnd, tl.evq)
	}
}
