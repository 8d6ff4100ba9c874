package sources

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// These tests race a writer that rotates its log against a TailBatches
// reading it, many rounds each, with the writer's pauses and rotation points
// drawn at random. They assert what the reader saw, never how fast.

// raceRestart stands for a Restart batch in what a race round saw.
const raceRestart = -1

// raceLine is event n of a race round. It is short (under 48 bytes), so any
// 64 bytes of a log hold one whole number: a rewritten log never reads the
// same as the old one at the same place.
func raceLine(n int) string {
	return `{"type":"CUSTOM","name":"e","value":` + strconv.Itoa(n) + "}\n"
}

// raceNumber is the number a record of raceLine carries.
func raceNumber(t *testing.T, r model.Record) int {
	t.Helper()
	if u, ok := r.Event.(*model.Unreadable); ok {
		t.Fatalf("an unreadable record (a false problem): %s at %d", u.Reason, u.Offset)
	}
	s := string(r.Raw)
	i := strings.Index(s, `"value":`)
	j := strings.LastIndexByte(s, '}')
	if i < 0 || j < i {
		t.Fatalf("record %q is not a race line", s)
	}
	n, err := strconv.Atoi(s[i+len(`"value":`) : j])
	if err != nil {
		t.Fatalf("record %q: %v", s, err)
	}
	return n
}

// raceWriter appends race lines to a log and rotates it.
type raceWriter struct {
	t    *testing.T
	path string
	rng  *rand.Rand
	f    *os.File
	next int // the number of the next line
}

func newRaceWriter(t *testing.T, path string, seed uint64) *raceWriter {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return &raceWriter{t: t, path: path, rng: rand.New(rand.NewPCG(seed, seed)), f: f}
}

// write appends the next n lines, in one write.
func (w *raceWriter) write(n int) {
	var b strings.Builder
	for range n {
		b.WriteString(raceLine(w.next))
		w.next++
	}
	if _, err := w.f.WriteString(b.String()); err != nil {
		w.t.Error(err)
	}
}

// jitter pauses the writer for a moment of random length, or not at all,
// so that the reader looks at the log at ever other points.
func (w *raceWriter) jitter() {
	switch w.rng.IntN(4) {
	case 0:
		time.Sleep(time.Duration(w.rng.IntN(300)) * time.Microsecond)
	case 1:
		for range w.rng.IntN(3) {
			runtime.Gosched()
		}
	}
}

// raceRound is one round: a log with line 0 in it, a tail that has read
// line 0, and what the tail sends from then on. write runs the writer
// (which must leave the log at the path when it returns); the round then
// appends one more line and returns all the tail sent up to it, Restarts
// as raceRestart.
func raceRound(t *testing.T, seed uint64, pollOnly bool, write func(w *raceWriter)) []int {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w := newRaceWriter(t, path, seed)
	defer func() { w.f.Close() }()
	w.write(1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := TailOptions{Poll: 20 * time.Millisecond}
	if pollOnly {
		// A Wake that never fires: no watcher, the poll alone, so the
		// tail looks at the file at points no change event chose.
		opts.Wake, opts.Poll = make(chan struct{}), 2*time.Millisecond
	}
	out, events := TailBatches(ctx, path, opts)
	go func() {
		for range events {
		}
	}()
	var seen []int
	deadline := time.After(20 * time.Second) // a hang, never a measure
	until := func(n int) {
		t.Helper()
		for len(seen) == 0 || seen[len(seen)-1] != n {
			select {
			case b := <-out:
				if b.Restart {
					seen = append(seen, raceRestart)
				}
				for _, r := range b.Records {
					seen = append(seen, raceNumber(t, r))
				}
			case <-deadline:
				t.Fatalf("line %d never came; saw %v", n, seen)
			}
		}
	}
	until(0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		write(w)
	}()
	<-done
	// One more line after the writer is done: anything read twice or
	// out of order comes before it.
	last := w.next
	w.write(1)
	until(last)
	return seen
}

// runRaceRounds runs rounds of a race, a few at a time, each with its own
// seed, half of them on the poll alone.
func runRaceRounds(t *testing.T, rounds int, round func(t *testing.T, seed uint64, pollOnly bool)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range rounds {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t.Run(fmt.Sprint(i), func(t *testing.T) { round(t, uint64(i)+1, i%2 == 1) })
		}()
	}
	wg.Wait()
}

// TestTailRaceRename races a rotation by rename: at a random point the
// writer's log is renamed away, the writer writes a few more lines to the
// file it still has open, then goes on in a new log at the path. In half of
// the rounds the new log is made (empty) right after the rename, as
// logrotate's create option does, and the writer still writes to the old
// file for a while after it is there. Every line is seen exactly once and
// in order, the lines written to the old file after the rename included,
// with one Restart between the old file's last line and the new file's
// first.
func TestTailRaceRename(t *testing.T) {
	runRaceRounds(t, 100, func(t *testing.T, seed uint64, pollOnly bool) {
		first := -1 // the new file's first line
		seen := raceRound(t, seed, pollOnly, func(w *raceWriter) {
			for range 1 + w.rng.IntN(40) {
				w.write(1 + w.rng.IntN(3))
				w.jitter()
			}
			if err := os.Rename(w.path, w.path+".1"); err != nil {
				w.t.Error(err)
				return
			}
			made := w.rng.IntN(2) == 0
			if made {
				if err := os.WriteFile(w.path, nil, 0o644); err != nil {
					w.t.Error(err)
					return
				}
			}
			for range w.rng.IntN(4) {
				w.jitter()
				w.write(1 + w.rng.IntN(2))
			}
			w.jitter()
			flags := os.O_WRONLY | os.O_APPEND | os.O_CREATE
			if !made {
				flags |= os.O_EXCL
			}
			f, err := os.OpenFile(w.path, flags, 0o644)
			if err != nil {
				w.t.Error(err)
				return
			}
			w.f.Close()
			w.f, first = f, w.next
			for range w.rng.IntN(30) {
				w.jitter()
				w.write(1 + w.rng.IntN(3))
			}
		})
		if first < 0 {
			t.FailNow() // the writer failed, and said why
		}
		var want []int
		for n := 0; n <= seen[len(seen)-1]; n++ {
			if n == first {
				want = append(want, raceRestart)
			}
			want = append(want, n)
		}
		if !slices.Equal(seen, want) {
			t.Fatalf("new file from line %d (-1 is a restart):\n saw %v\nwant %v", first, seen, want)
		}
	})
}

// TestTailRaceCopyTruncate races logrotate's copytruncate: at one to three
// random points the writer's log is copied away and truncated to nothing
// while the writer goes on appending to it; half of the time the writer at
// once writes more than the log held, so that the log is longer again than
// where the reader was before the reader looks.
//
// Lines written after the copy and before the truncation are gone from the
// log, and so are those the reader had not read when the log was truncated:
// copytruncate loses them for any reader. What the tail guarantees, and
// this checks, is: no line is seen twice or out of order, no record is
// unreadable, a line is missing only just before a Restart, there are no
// more Restarts than truncations (and at least one), and after each
// Restart the log is read from its start: the next line seen is the first
// written after a truncation.
func TestTailRaceCopyTruncate(t *testing.T) {
	runRaceRounds(t, 100, func(t *testing.T, seed uint64, pollOnly bool) {
		starts := map[int]bool{} // the first line written after each truncation
		truncations := 0
		seen := raceRound(t, seed, pollOnly, func(w *raceWriter) {
			for k := range 1 + w.rng.IntN(3) {
				for range w.rng.IntN(40) {
					w.write(1 + w.rng.IntN(3))
					w.jitter()
				}
				data, err := os.ReadFile(w.path)
				if err == nil {
					err = os.WriteFile(w.path+"."+strconv.Itoa(k+1), data, 0o644)
				}
				if err != nil {
					w.t.Error(err)
					return
				}
				lost := w.rng.IntN(3)
				w.write(lost)
				if err := os.Truncate(w.path, 0); err != nil {
					w.t.Error(err)
					return
				}
				truncations++
				starts[w.next] = true
				if w.rng.IntN(2) == 0 {
					// Longer than before at once: a line is never shorter
					// than one before it.
					w.write(strings.Count(string(data), "\n") + lost + 1)
				}
				w.jitter()
			}
			for range w.rng.IntN(20) {
				w.write(1)
				w.jitter()
			}
		})
		prev, restarts, restarted := -1, 0, false
		for _, n := range seen {
			if n == raceRestart {
				restarts++
				restarted = true
				continue
			}
			switch {
			case n <= prev:
				t.Fatalf("line %d after line %d: read twice or out of order (-1 is a restart); saw %v", n, prev, seen)
			case restarted && !starts[n]:
				t.Fatalf("line %d first after a restart, not the start of the new content (%v); saw %v", n, starts, seen)
			case !restarted && n != prev+1:
				t.Fatalf("lines %d to %d missing with no restart; saw %v", prev+1, n-1, seen)
			}
			prev, restarted = n, false
		}
		if restarts == 0 || restarts > truncations {
			t.Fatalf("%d restarts for %d truncations; saw %v", restarts, truncations, seen)
		}
	})
}

// TestTailReadsDeletedFileUntilQuiet: a file deleted from the path is read
// on while it grows (its writer still has it open) and closed once a look
// finds it has not grown for long enough; a file made at the path then is
// a rotation.
func TestTailReadsDeletedFileUntilQuiet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	w := newRaceWriter(t, path, 1)
	defer w.f.Close()
	w.write(2)
	tl := newTailer(path, TailOptions{Poll: time.Hour})
	tl.check()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	tl.check()
	w.write(1)
	tl.check()
	if tl.f == nil || len(tl.pending) != 3 {
		t.Fatalf("after the delete: open %v, %d records, want the file open and 3", tl.f != nil, len(tl.pending))
	}
	tl.quiet = 0 // a look now is long enough after the last growth
	tl.check()
	if tl.f != nil {
		t.Fatal("the deleted file is still open, quiet")
	}
	appendFile(t, path, raceLine(3))
	tl.check()
	if want := []TailEvent{TailFollowing, TailWaiting, TailRotated}; !slices.Equal(tl.evq, want) {
		t.Fatalf("events %v, want %v", tl.evq, want)
	}
	if len(tl.ready) != 2 || !tl.ready[1].restart || len(tl.pending) != 1 || raceNumber(t, tl.pending[0]) != 3 {
		t.Fatalf("ready %v, pending %v: want the 3 old records, a restart, then line 3", tl.ready, types(tl.pending))
	}
}

// TestTailReplacedWhileReadInSteps: a big file replaced at its path while
// it is still being read a step at a time is read to its end before the new
// file.
func TestTailReplacedWhileReadInSteps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	var b strings.Builder
	pad := strings.Repeat("x", 8000) // few records: the decoding is not what is tried
	n := 0
	for ; b.Len() < 3*tailDrainStep+tailDrainStep/2; n++ {
		b.WriteString(`{"type":"CUSTOM","name":"` + pad + `","value":` + strconv.Itoa(n) + "}\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tl := newTailer(path, TailOptions{Poll: time.Hour})
	tl.check()
	if !tl.more {
		t.Fatal("the first look read the whole file")
	}
	if err := os.WriteFile(filepath.Join(dir, "new"), []byte(raceLine(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "new"), path); err != nil {
		t.Fatal(err)
	}
	tl.check() // a look in the middle: the old file is not done
	if tl.f == nil || !tl.more {
		t.Fatal("the look during the read in steps left the old file")
	}
	for tl.more { // as runTail does, a step per batch sent
		tl.drain()
	}
	tl.check()
	var seen []int
	for _, rb := range append(tl.ready, tailBatch{recs: tl.pending}) {
		if rb.restart {
			seen = append(seen, raceRestart)
		}
		for _, r := range rb.recs {
			seen = append(seen, raceNumber(t, r))
		}
	}
	want := make([]int, 0, n+2)
	for i := range n {
		want = append(want, i)
	}
	want = append(want, raceRestart, n)
	if !slices.Equal(seen, want) {
		t.Fatalf("saw %d items ending %v, want %d ending %v", len(seen), seen[max(0, len(seen)-3):], len(want), want[len(want)-3:])
	}
}
