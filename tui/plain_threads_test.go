package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// printThreads folds batches, each of one source, through a ThreadsPrinter
// and returns what it wrote, as lines; oneByOne folds record by record.
func printThreads(t *testing.T, batches []model.Batch, withSource, oneByOne bool) []string {
	t.Helper()
	ts := fold.NewThreads(fold.Options{})
	var out bytes.Buffer
	p := NewThreadsPrinter(&out, ts, withSource)
	for _, b := range batches {
		groups := [][]model.Record{b.Records}
		if oneByOne {
			groups = groups[:0]
			for i := range b.Records {
				groups = append(groups, b.Records[i:i+1])
			}
		}
		for _, g := range groups {
			if err := p.Print(ts.Apply(b.Source, g...)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return printedLines(t, out.String())
}

// isHeading reports whether a line is a thread heading.
func isHeading(l string) bool {
	return strings.HasPrefix(l, "== thread ") && strings.HasSuffix(l, " ==")
}

// A log of one thread prints exactly what PlainPrinter prints.
func TestThreadsPrinterOneThread(t *testing.T) {
	for _, oneByOne := range []bool{true, false} {
		recs := readDemo(t)
		for _, withSource := range []bool{false, true} {
			heading := "== thread 82397c72-6035-488c-98cd-14bf01fc91c2 =="
			if withSource {
				heading = "== thread 82397c72-6035-488c-98cd-14bf01fc91c2 · demo.jsonl =="
			}
			want := append([]string{heading}, printPlain(t, recs, oneByOne)...)
			got := printThreads(t, []model.Batch{{Source: "demo.jsonl", Records: recs}}, withSource, oneByOne)
			if len(want) == 1 || !slices.Equal(got, want) {
				t.Errorf("one by one %v, with source %v: %d lines, PlainPrinter prints %d; first difference at %d", oneByOne, withSource,
					len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

// firstDiff is the index of the first line where a and b differ.
func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// With several threads a heading comes before each change of thread and
// before the first thread's lines, and each thread's lines are those
// PlainPrinter prints for it alone.
func TestThreadsPrinterHeadings(t *testing.T) {
	recs := threadsRecords(t)
	for _, withSource := range []bool{false, true} {
		lines := printThreads(t, []model.Batch{{Source: threadsSource, Records: recs}}, withSource, true)
		if len(lines) == 0 || !isHeading(lines[0]) {
			t.Fatalf("the output starts with %q", lines[:min(1, len(lines))])
		}
		byThread := map[string][]string{}
		runs := logRuns(t, recs)
		firstID := runs[0].thread
		cur, headings := "", 0
		for i, l := range lines {
			if !isHeading(l) {
				byThread[cur] = append(byThread[cur], l)
				continue
			}
			headings++
			name := strings.TrimSuffix(strings.TrimPrefix(l, "== thread "), " ==")
			id, src, cut := strings.Cut(name, " · ")
			if cut != withSource || withSource && src != threadsSource {
				t.Fatalf("heading %q, with source %v", l, withSource)
			}
			if id == cur {
				t.Fatalf("line %d: heading %q for the thread printed last", i, l)
			}
			if i+1 == len(lines) || isHeading(lines[i+1]) {
				t.Fatalf("line %d: heading %q with no line of its thread after it", i, l)
			}
			if headings == 1 && id != firstID {
				t.Fatalf("the first heading %q does not name the first thread %s", l, firstID)
			}
			cur = id
		}
		// Every run prints lines, so each run of another thread than
		// the run before's starts with a heading.
		changes := 0
		for i := 1; i < len(runs); i++ {
			if runs[i].thread != runs[i-1].thread {
				changes++
			}
		}
		if headings != changes+1 {
			t.Errorf("%d headings, want %d: the first thread's, and one per change of thread between runs", headings, changes+1)
		}
		if len(byThread) != 6 {
			t.Fatalf("lines of %d threads, want 6", len(byThread))
		}
		for id, got := range byThread {
			if want := printPlain(t, threadFileRecords(t, id), true); !slices.Equal(got, want) {
				t.Errorf("thread %s: %d lines, PlainPrinter prints %d for it alone; first difference at %d", id, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

// A folder's headings name each thread's file: two files that use the
// same thread id hold two threads.
func TestThreadsPrinterFolder(t *testing.T) {
	var batches []model.Batch
	for i, log := range []int{0, 1, 1} {
		batches = append(batches, model.Batch{Source: fmt.Sprintf("logs/f%04d.jsonl", i), Records: readPlainLog(t, folderLog(log))})
	}
	for _, withSource := range []bool{false, true} {
		lines := printThreads(t, batches, withSource, false)
		var headings []string
		for _, l := range lines {
			if isHeading(l) {
				headings = append(headings, l)
			}
		}
		want := []string{"== thread thread-0000 ==", "== thread thread-0001 ==", "== thread thread-0001 =="}
		if withSource {
			want = []string{"== thread thread-0000 · logs/f0000.jsonl ==", "== thread thread-0001 · logs/f0001.jsonl ==", "== thread thread-0001 · logs/f0002.jsonl =="}
		}
		if !slices.Equal(headings, want) || !isHeading(lines[0]) || !strings.Contains(lines[1], "run-0000") {
			t.Errorf("with source %v: headings %q, want %q; first line %q", withSource, headings, want, lines[0])
		}
	}
}

// hostileThreadsLog is a log of six threads, one run each, five of whose
// ids hold escape sequences, line breaks and other control characters.
func hostileThreadsLog(t testing.TB) []byte {
	t.Helper()
	hostile := []string{
		"plain",
		"evil\x1b[31mred\x1b[0m",
		"two\nlines\r\nthree",
		"title\x1b]0;pwned\x07bell\x07",
		"clear\x1b[2J\x1b[Hscreen",
		"c1\u009b31mcsi\u0085nel",
	}
	var log bytes.Buffer
	for i, id := range hostile {
		q, err := json.Marshal(id)
		if err != nil {
			t.Fatal(err)
		}
		ms := 1_760_000_000_000 + i*1000
		fmt.Fprintf(&log, `{"type":"RUN_STARTED","threadId":%s,"runId":"r%d","input":{"threadId":%s,"runId":"r%d",`+
			`"messages":[{"id":"u%d","role":"user","content":"hello %d"}]},"timestamp":%d}`+"\n", q, i, q, i, i, i, ms)
		fmt.Fprintf(&log, `{"type":"RUN_FINISHED","threadId":%s,"runId":"r%d","timestamp":%d}`+"\n", q, i, ms+500)
	}
	return log.Bytes()
}

// Thread ids and file names are agent text: a heading shows them on one
// line, without their escape sequences and control characters.
func TestThreadsPrinterHostileHeadings(t *testing.T) {
	recs := readPlainLog(t, hostileThreadsLog(t))
	lines := printThreads(t, []model.Batch{{Source: "dir/\x1b[31mevil\nname.jsonl", Records: recs}}, true, true)
	var headings []string
	for _, l := range lines {
		if strings.HasPrefix(l, "==") {
			headings = append(headings, l)
		}
	}
	// printThreads has failed already on any control character left.
	want := []string{
		"== thread plain · dir/evil name.jsonl ==",
		"== thread evilred · dir/evil name.jsonl ==",
		"== thread two lines three · dir/evil name.jsonl ==",
		"== thread titlebell · dir/evil name.jsonl ==",
		"== thread clearscreen · dir/evil name.jsonl ==",
		"== thread c1csinel · dir/evil name.jsonl ==",
	}
	if !slices.Equal(headings, want) {
		t.Errorf("headings:\n%q\nwant:\n%q", headings, want)
	}
}
