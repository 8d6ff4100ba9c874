package sources

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// batchTail is a TailBatches a test reads batch by batch.
type batchTail struct {
	t       *testing.T
	out     <-chan model.Batch
	events  <-chan TailEvent
	batches []model.Batch
	recs    []model.Record
	seen    []TailEvent
}

func startBatchTail(t *testing.T, path string, from *TailStart, maxEvent int64) *batchTail {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, events := TailBatches(ctx, path, TailOptions{Poll: 50 * time.Millisecond, MaxEventBytes: maxEvent, From: from})
	t.Cleanup(func() {
		cancel()
		for range out {
		}
		for range events {
		}
	})
	return &batchTail{t: t, out: out, events: events}
}

// next is the next batch; events that come meanwhile are kept.
func (b *batchTail) next() model.Batch {
	b.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case x := <-b.out:
			b.batches = append(b.batches, x)
			b.recs = append(b.recs, x.Records...)
			return x
		case e := <-b.events:
			b.seen = append(b.seen, e)
		case <-timeout:
			b.t.Fatalf("no batch after %d records", len(b.recs))
		}
	}
}

// until reads batches until n records came in all.
func (b *batchTail) until(n int) {
	b.t.Helper()
	for len(b.recs) < n {
		b.next()
	}
}

// waitEvent reads events until e comes.
func (b *batchTail) waitEvent(e TailEvent) {
	b.t.Helper()
	timeout := time.After(20 * time.Second)
	for !slices.Contains(b.seen, e) {
		select {
		case x := <-b.events:
			b.seen = append(b.seen, x)
		case <-timeout:
			b.t.Fatalf("no %v event; got %v", e, b.seen)
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkLines checks that recs are tailEvent(n), tailEvent(n+1)… numbered
// from seq on.
func checkLines(t *testing.T, recs []model.Record, seq uint64, n int) {
	t.Helper()
	for i, r := range recs {
		want, _ := tailEvent(n + i)
		if r.Seq != seq+uint64(i) || string(r.Raw) != want {
			t.Fatalf("record %d: Seq %d %s, want Seq %d %s", i, r.Seq, r.Raw, seq+uint64(i), want)
		}
	}
}

// takeUpAt tails a copy of log (n events, tailEvent(0…n-1)) from end, the
// End of a batch whose last record was numbered seq, and checks that it
// goes on there without a restart, and on with what is appended.
func takeUpAt(t *testing.T, log []byte, n int, end int64, seq uint64, full []model.Record) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeFile(t, path, log)
	from, err := TailStartAt(path, end, seq)
	if err != nil {
		t.Fatal(err)
	}
	tl := startBatchTail(t, path, &from, 0)
	tl.until(n - int(seq))
	if int(seq) < n && !bytes.Equal(tl.recs[0].Raw, full[seq].Raw) {
		t.Fatalf("the first record is %s, a full tail's record %d is %s", tl.recs[0].Raw, seq+1, full[seq].Raw)
	}
	more, _ := lines(n, n+3)
	appendFile(t, path, more)
	tl.until(n + 3 - int(seq))
	checkLines(t, tl.recs, seq+1, int(seq))
	if len(tl.recs) != n+3-int(seq) {
		t.Fatalf("%d records, want %d", len(tl.recs), n+3-int(seq))
	}
	for _, b := range tl.batches {
		if b.Restart {
			t.Fatal("a restart batch")
		}
	}
	if last := tl.batches[len(tl.batches)-1]; last.End != int64(len(log)+len(more)) {
		t.Fatalf("the last batch ends at %d, the file at %d", last.End, len(log)+len(more))
	}
	if slices.Contains(tl.seen, TailTruncated) {
		t.Fatal("reported truncated")
	}
}

// A tail taken up at the End of any batch of a full tail goes on with the
// next record, numbered on, and follows appends.
func TestTailFromBatchEnds(t *testing.T) {
	const n = 40_000 // 2.6 MB: three batches or more
	s, _ := lines(0, n)
	log := []byte(s)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	writeFile(t, path, log)
	full := startBatchTail(t, path, nil, 0)
	full.until(n)
	checkLines(t, full.recs, 1, 0)
	type cut struct {
		end int64
		seq uint64
	}
	var cuts []cut
	for _, b := range full.batches {
		if len(b.Records) == 0 {
			continue
		}
		c := cut{b.End, b.Records[len(b.Records)-1].Seq}
		if c.end <= 0 || c.end > int64(len(log)) || log[c.end-1] != '\n' || bytes.Count(log[:c.end], []byte{'\n'}) != int(c.seq) {
			t.Fatalf("batch up to record %d ends at %d", c.seq, c.end)
		}
		cuts = append(cuts, c)
	}
	if len(cuts) < 3 {
		t.Fatalf("%d batches, want several", len(cuts))
	}
	if last := cuts[len(cuts)-1]; last.end != int64(len(log)) {
		t.Fatalf("the last batch ends at %d, the file at %d", last.end, len(log))
	}
	for _, c := range cuts {
		t.Run(fmt.Sprint(c.seq), func(t *testing.T) { takeUpAt(t, log, n, c.end, c.seq, full.recs) })
	}
}

// A small file is taken up after any of its lines.
func TestTailFromSmallFile(t *testing.T) {
	const n = 7
	s, _ := lines(0, n)
	log := []byte(s)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeFile(t, path, log)
	full := startBatchTail(t, path, nil, 0)
	full.until(n)
	if last := full.batches[len(full.batches)-1]; last.End != int64(len(log)) {
		t.Fatalf("the last batch ends at %d, the file at %d", last.End, len(log))
	}
	end := int64(0)
	for k := 1; k <= n; k++ {
		end += int64(bytes.IndexByte(log[end:], '\n') + 1)
		t.Run(fmt.Sprint(k), func(t *testing.T) { takeUpAt(t, log, n, end, uint64(k), full.recs) })
	}
}

// End stops before a last line not yet whole, and a tail taken up there
// reads that line once it is.
func TestTailFromPartialLine(t *testing.T) {
	s, _ := lines(0, 5)
	ev, _ := tailEvent(5)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeFile(t, path, []byte(s+ev[:12]))
	full := startBatchTail(t, path, nil, 0)
	full.until(5)
	end := full.batches[len(full.batches)-1].End
	if end != int64(len(s)) {
		t.Fatalf("the last batch ends at %d, want %d (before the partial line)", end, len(s))
	}
	from, err := TailStartAt(path, end, 5)
	if err != nil {
		t.Fatal(err)
	}
	tl := startBatchTail(t, path, &from, 0)
	appendFile(t, path, ev[12:]+"\n")
	b := tl.next()
	if b.Restart || len(b.Records) != 1 {
		t.Fatalf("first batch: restart %v, %d records", b.Restart, len(b.Records))
	}
	checkLines(t, tl.recs, 6, 5)
}

// A tail whose From does not hold for the file starts over: a restart
// batch first, then the whole file from its top, numbered after From.Seq.
func TestTailFromRestarts(t *testing.T) {
	s, _ := lines(0, 10)
	orig := []byte(s)
	ends := []int64{0} // ends[k] is just past line k
	for i, c := range orig {
		if c == '\n' {
			ends = append(ends, int64(i+1))
		}
	}
	end6 := ends[6]
	alter := func(b []byte, from, to string) []byte {
		if !bytes.Contains(b, []byte(from)) {
			panic(from)
		}
		return bytes.Replace(bytes.Clone(b), []byte(from), []byte(to), 1)
	}
	var evs []string
	for i := range 5 {
		e, _ := tailEvent(i)
		evs = append(evs, e)
	}
	var sse strings.Builder
	for _, e := range evs {
		sse.WriteString("data: " + e + "\n\n")
	}
	array := "[\n" + strings.Join(evs, ",\n") + "\n]\n"
	alterArray := func(from, to string) string { return string(alter([]byte(array), from, to)) }
	altered := func(from, to string) []string {
		var got []string
		for _, e := range evs {
			got = append(got, strings.Replace(e, from, to, 1))
		}
		return got
	}
	// arrayStart is where a tail of the array stops after its event k.
	arrayStart := func(t *testing.T, path string, k int) TailStart {
		t.Helper()
		s, err := TailStartAt(path, int64(len("[\n"+strings.Join(evs[:k+1], ",\n"))), 6)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	linesOf := func(b []byte) []string {
		return slices.DeleteFunc(strings.Split(string(b), "\n"), func(s string) bool { return s == "" })
	}
	more, _ := lines(10, 20)
	cases := []struct {
		name      string
		orig, now []byte
		from      func(path string) TailStart // on orig
		want      []string
	}{
		{name: "other mark, same length", orig: orig, now: alter(orig, `"n":5}`, `"n":9}`)},
		{name: "other mark, longer", orig: orig, now: append(alter(orig, `"n":5}`, `"n":9}`), more...)},
		{name: "other head", orig: orig, now: alter(orig, `"n":0}`, `"n":8}`)},
		{name: "past the end", orig: orig, now: orig[:ends[3]]},
		{name: "not at a line's start", orig: orig, now: orig,
			from: func(string) TailStart { return startOf(orig, end6-3, 6) }},
		{name: "no offset", orig: orig, now: orig,
			from: func(string) TailStart { return TailStart{Seq: 6} }},
		{name: "sse, not after a frame", orig: []byte(sse.String()), now: []byte(sse.String()), want: evs,
			from: func(string) TailStart {
				return startOf([]byte(sse.String()), int64(len("data: "+evs[0]+"\n")), 6)
			}},
		{name: "array, other mark", orig: []byte(array), now: []byte(alterArray(`"n":1}`, `"n":7}`)), want: altered(`"n":1}`, `"n":7}`),
			from: func(path string) TailStart { return arrayStart(t, path, 2) }},
		{name: "array, other head", orig: []byte(array), now: []byte(alterArray(`"n":0}`, `"n":8}`)), want: altered(`"n":0}`, `"n":8}`),
			from: func(path string) TailStart { return arrayStart(t, path, 2) }},
		{name: "array, past the end", orig: []byte(array), now: []byte(array[:len("[\n"+evs[0])]), want: evs[:1],
			from: func(path string) TailStart { return arrayStart(t, path, 2) }},
		{name: "array, after a comma", orig: []byte(array), now: []byte(array), want: evs,
			from: func(string) TailStart { return startOf([]byte(array), int64(len("[\n"+evs[0]+",\n")), 6) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.log")
			writeFile(t, path, c.orig)
			var from TailStart
			if c.from != nil {
				from = c.from(path)
			} else {
				var err error
				if from, err = TailStartAt(path, end6, 6); err != nil {
					t.Fatal(err)
				}
			}
			writeFile(t, path, c.now)
			want := c.want
			if want == nil {
				want = linesOf(c.now)
			}
			tl := startBatchTail(t, path, &from, 0)
			if b := tl.next(); !b.Restart || len(b.Records) != 0 {
				t.Fatalf("first batch: restart %v, %d records; want an empty restart", b.Restart, len(b.Records))
			}
			tl.until(len(want))
			if len(tl.recs) != len(want) {
				t.Fatalf("%d records, want %d", len(tl.recs), len(want))
			}
			for i, r := range tl.recs {
				if r.Seq != uint64(7+i) || string(r.Raw) != want[i] {
					t.Fatalf("record %d: Seq %d %s, want Seq %d %s", i, r.Seq, r.Raw, 7+i, want[i])
				}
			}
			tl.waitEvent(TailTruncated)
		})
	}
}

// startOf is the TailStart at offset in log, made as TailStartAt makes
// one but without its checks, for a tail to refuse.
func startOf(log []byte, offset int64, seq uint64) TailStart {
	return TailStart{Offset: offset, Seq: seq, Head: bytes.Clone(log[:min(offset, tailHeadBytes)]),
		Mark: bytes.Clone(log[offset-min(offset, tailMarkBytes) : offset])}
}

// TailStartAt reads the head and the mark as the tail keeps them, and
// fails where there is nothing to take up.
func TestTailStartAt(t *testing.T) {
	s, _ := lines(0, 50)
	path := filepath.Join(t.TempDir(), "run.jsonl")
	writeFile(t, path, []byte(s))
	first := int64(strings.IndexByte(s, '\n') + 1)
	for _, off := range []int64{first, first + int64(strings.IndexByte(s[first:], '\n')+1), int64(len(s))} {
		st, err := TailStartAt(path, off, 3)
		if err != nil {
			t.Fatal(err)
		}
		if st.Offset != off || st.Seq != 3 ||
			string(st.Head) != s[:min(off, tailHeadBytes)] ||
			string(st.Mark) != s[off-min(off, tailMarkBytes):off] {
			t.Fatalf("at %d: %+v", off, st)
		}
	}
	for _, off := range []int64{0, -1, int64(len(s)) + 1, 10, first - 1, first + 1} {
		if _, err := TailStartAt(path, off, 3); err == nil {
			t.Fatalf("at %d: no error", off)
		}
	}
	if _, err := TailStartAt(path, 100, 3); !errors.Is(err, ErrNotAfterRecord) {
		t.Fatalf("inside a line: %v; want ErrNotAfterRecord", err)
	}
	if _, err := TailStartAt(filepath.Join(t.TempDir(), "none"), 10, 3); err == nil {
		t.Fatal("a missing file: no error")
	}
}
