package sources

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

var tailTypes = []string{"RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED", "RUN_FINISHED"}

// tailEvent returns event number i as one JSON object and its type.
func tailEvent(i int) (string, string) {
	typ := tailTypes[i%len(tailTypes)]
	var body string
	switch typ {
	case "RUN_STARTED", "RUN_FINISHED":
		body = `"threadId":"t","runId":"r"`
	case "STEP_STARTED", "STEP_FINISHED":
		body = fmt.Sprintf(`"stepName":"s%d"`, i)
	case "TEXT_MESSAGE_START":
		body = `"messageId":"m","role":"assistant"`
	case "TEXT_MESSAGE_CONTENT":
		body = fmt.Sprintf(`"messageId":"m","delta":"d%d"`, i)
	case "TEXT_MESSAGE_END":
		body = `"messageId":"m"`
	}
	return fmt.Sprintf(`{"type":%q,%s,"n":%d}`, typ, body, i), typ
}

// tailLog is what a test collected from a Tail.
type tailLog struct {
	mu     sync.Mutex
	recs   []model.Record
	events []TailEvent
	done   chan struct{}
}

func startTail(t *testing.T, path string) *tailLog {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	recs, events := Tail(ctx, path, TailOptions{Poll: 50 * time.Millisecond})
	l := &tailLog{done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for b := range recs {
			l.mu.Lock()
			l.recs = append(l.recs, b...)
			l.mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for e := range events {
			l.mu.Lock()
			l.events = append(l.events, e)
			l.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait() // both channels must close
	})
	return l
}

// waitFor polls cond for up to 20 s: a failure timeout, long enough for a
// 40,000-record file under the race detector on a busy machine.
func (l *tailLog) waitFor(t *testing.T, what string, cond func(recs []model.Record, events []TailEvent) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		l.mu.Lock()
		ok := cond(l.recs, l.events)
		l.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			l.mu.Lock()
			defer l.mu.Unlock()
			t.Fatalf("timed out waiting for %s; events %v, %d records: %v", what, l.events, len(l.recs), types(l.recs))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (l *tailLog) waitEvent(t *testing.T, e TailEvent) {
	t.Helper()
	l.waitFor(t, "event "+e.String(), func(_ []model.Record, ev []TailEvent) bool { return slices.Contains(ev, e) })
}

// waitRecords waits for exactly want (event types) and checks Seq and content.
func (l *tailLog) waitRecords(t *testing.T, want []string) {
	t.Helper()
	l.waitFor(t, fmt.Sprintf("%d records", len(want)), func(r []model.Record, _ []TailEvent) bool { return len(r) >= len(want) })
	time.Sleep(120 * time.Millisecond) // more than two polls: anything extra would show
	l.mu.Lock()
	defer l.mu.Unlock()
	if got := types(l.recs); !slices.Equal(got, want) {
		t.Fatalf("records:\n got %v\nwant %v", got, want)
	}
	for i, r := range l.recs {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d has Seq %d", i, r.Seq)
		}
		if !strings.Contains(string(r.Raw), fmt.Sprintf(`"n":%d}`, i)) {
			t.Fatalf("record %d is %s", i, r.Raw)
		}
	}
}

func types(recs []model.Record) []string {
	var out []string
	for _, r := range recs {
		if u, ok := r.Event.(*model.Unreadable); ok {
			out = append(out, "UNREADABLE:"+u.Reason)
			continue
		}
		out = append(out, r.Event.EventType())
	}
	return out
}

// lines returns events from..to-1 as JSON Lines and their types.
func lines(from, to int) (string, []string) {
	var b strings.Builder
	var ts []string
	for i := from; i < to; i++ {
		s, typ := tailEvent(i)
		b.WriteString(s + "\n")
		ts = append(ts, typ)
	}
	return b.String(), ts
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestTailAppendBursts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	first, want := lines(0, 5)
	appendFile(t, path, first)
	l := startTail(t, path)
	l.waitEvent(t, TailFollowing)
	l.waitRecords(t, want)
	for burst := range 4 {
		s, ts := lines(5+burst*20, 5+(burst+1)*20)
		appendFile(t, path, s)
		want = append(want, ts...)
	}
	l.waitRecords(t, want)
}

func TestTailAppendByteByByte(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	appendFile(t, path, "")
	l := startTail(t, path)
	l.waitEvent(t, TailFollowing)
	s, want := lines(0, 6)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range len(s) {
		if _, err := f.Write([]byte{s[i]}); err != nil {
			t.Fatal(err)
		}
		if i%7 == 0 {
			time.Sleep(time.Millisecond) // let the tail see partial lines
		}
	}
	l.waitRecords(t, want)
}

func TestTailSSE(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.sse")
	var want []string
	frame := func(i int) string {
		s, typ := tailEvent(i)
		want = append(want, typ)
		return "event: x\ndata: " + s + "\n\n"
	}
	appendFile(t, path, frame(0)+frame(1))
	l := startTail(t, path)
	f3 := frame(2)
	appendFile(t, path, f3[:10])
	appendFile(t, path, f3[10:]+frame(3))
	l.waitRecords(t, want)
}

func TestTailTruncate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s, want := lines(0, 10)
	appendFile(t, path, s)
	l := startTail(t, path)
	l.waitRecords(t, want)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	s, ts := lines(10, 12) // shorter than before
	appendFile(t, path, s)
	l.waitEvent(t, TailTruncated)
	l.waitRecords(t, append(want, ts...))
}

func TestTailRotate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	s, want := lines(0, 5)
	appendFile(t, path, s)
	l := startTail(t, path)
	l.waitRecords(t, want)
	// The last lines go to the old file just before it is rotated.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, ts := lines(5, 8)
	want = append(want, ts...)
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, filepath.Join(dir, "run.jsonl.1")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, ts = lines(8, 12)
	appendFile(t, path, s)
	l.waitEvent(t, TailRotated)
	l.waitRecords(t, append(want, ts...))
}

func TestTailDeleteRecreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s, want := lines(0, 5)
	appendFile(t, path, s)
	l := startTail(t, path)
	l.waitRecords(t, want)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	l.waitEvent(t, TailWaiting)
	s, ts := lines(5, 9)
	appendFile(t, path, s)
	l.waitEvent(t, TailRotated)
	l.waitRecords(t, append(want, ts...))
}

func TestTailRenameOver(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	s, want := lines(0, 5)
	appendFile(t, path, s)
	l := startTail(t, path)
	l.waitRecords(t, want)
	// An editor saves: the whole file written to a temp file, renamed over.
	s, _ = lines(0, 5)
	s2, ts := lines(5, 7)
	tmp := filepath.Join(dir, ".run.jsonl.swp")
	appendFile(t, tmp, s+s2)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	l.waitEvent(t, TailRotated)
	// The new file is read from its top: the first five again, then the rest.
	l.waitFor(t, "rotated content", func(r []model.Record, _ []TailEvent) bool { return len(r) >= 12 })
	time.Sleep(120 * time.Millisecond)
	l.mu.Lock()
	defer l.mu.Unlock()
	got := types(l.recs)
	wantAll := append(append(slices.Clone(want), want...), ts...)
	if !slices.Equal(got, wantAll) {
		t.Fatalf("records:\n got %v\nwant %v", got, wantAll)
	}
	for i, r := range l.recs {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d has Seq %d", i, r.Seq)
		}
	}
}

func TestTailWaitsForFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "later.jsonl")
	l := startTail(t, path)
	l.waitEvent(t, TailWaiting)
	s, want := lines(0, 4)
	appendFile(t, path, s)
	l.waitEvent(t, TailFollowing)
	l.waitRecords(t, want)
}

func TestTailJSONArray(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	appendFile(t, path, "[\n")
	l := startTail(t, path)
	l.waitEvent(t, TailFollowing)
	var want []string
	for i := range 8 {
		s, typ := tailEvent(i)
		want = append(want, typ)
		if i > 0 {
			s = ",\n" + s
		}
		if i%2 == 0 { // half of them in two pieces
			appendFile(t, path, s[:len(s)/2])
			time.Sleep(2 * time.Millisecond)
			appendFile(t, path, s[len(s)/2:])
		} else {
			appendFile(t, path, s)
		}
	}
	appendFile(t, path, "\n]\n")
	l.waitRecords(t, want)
}

func TestTailStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	recs, events := Tail(ctx, filepath.Join(t.TempDir(), "none"), TailOptions{Poll: 50 * time.Millisecond})
	cancel()
	timeout := time.After(5 * time.Second)
	for recs != nil || events != nil {
		select {
		case _, ok := <-recs:
			if !ok {
				recs = nil
			}
		case _, ok := <-events:
			if !ok {
				events = nil
			}
		case <-timeout:
			t.Fatal("channels not closed after cancel")
		}
	}
}

// TestTailPollOnly runs the file changes with the poll as the only signal,
// as on a network filesystem.
func TestTailPollOnly(t *testing.T) {
	tailNotify = false
	defer func() { tailNotify = true }()
	t.Run("append", TestTailAppendBursts)
	t.Run("truncate", TestTailTruncate)
	t.Run("rotate", TestTailRotate)
	t.Run("delete", TestTailDeleteRecreate)
	t.Run("waits", TestTailWaitsForFile)
	t.Run("array", TestTailJSONArray)
}

// TestTailBigFile reads a file of several megabytes at once and then follows it.
func TestTailBigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	s, want := lines(0, 40000)
	appendFile(t, path, s)
	l := startTail(t, path)
	l.waitRecords(t, want)
	s, ts := lines(40000, 40010)
	appendFile(t, path, s)
	l.waitRecords(t, append(want, ts...))
}

// TestTailBatchRate checks that records written faster than the tail
// sends batches are gathered into fewer batches than records, and that none
// are lost. (How far apart batches are is the tail's timer's business; a
// test that measured it would measure the machine.)
func TestTailBatchRate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fast.jsonl")
	appendFile(t, path, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	recs, _ := Tail(ctx, path, TailOptions{Poll: 50 * time.Millisecond})
	go func() {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return // the test fails on the missing records
		}
		defer f.Close()
		for i := range 300 {
			s, _ := lines(i, i+1)
			f.WriteString(s)
		}
	}()
	batches, n := 0, 0
	timeout := time.After(30 * time.Second)
	for n < 300 {
		select {
		case b := <-recs:
			batches++
			n += len(b)
		case <-timeout:
			t.Fatalf("got %d of 300 records", n)
		}
	}
	if n != 300 {
		t.Fatalf("got %d records, want 300", n)
	}
	if batches >= n {
		t.Errorf("300 records written back to back came in %d batches: none were gathered", batches)
	}
}

// TestTailPartialLineAtRotation: a last line without its newline is held
// while the file grows, and read when the file is rotated away.
func TestTailPartialLineAtRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	s, want := lines(0, 3)
	last, typ := tailEvent(3)
	appendFile(t, path, s+last) // no newline
	l := startTail(t, path)
	l.waitRecords(t, want)
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	s, ts := lines(4, 6)
	appendFile(t, path, s)
	l.waitEvent(t, TailRotated)
	l.waitRecords(t, append(append(want, typ), ts...))
}

func TestTailOversizedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	appendFile(t, path, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	recs, _ := Tail(ctx, path, TailOptions{Poll: 50 * time.Millisecond, MaxEventBytes: 100})
	s0, _ := tailEvent(0)
	appendFile(t, path, s0+"\n"+`{"type":"RAW","x":"`+strings.Repeat("y", 500)+`"}`+"\n")
	s2, _ := tailEvent(2)
	appendFile(t, path, s2+"\n")
	var got []model.Record
	timeout := time.After(5 * time.Second)
	for len(got) < 3 {
		select {
		case b := <-recs:
			got = append(got, b...)
		case <-timeout:
			t.Fatalf("got %v", types(got))
		}
	}
	if _, ok := got[1].Event.(*model.Unreadable); !ok || len(got) != 3 || got[2].Seq != 3 {
		t.Fatalf("got %v", types(got))
	}
}

// TailBatches says a restart in line: the old content's records, then an
// empty batch marked Restart, then the new content's, for a truncation and
// for a replacement of the file.
func TestTailBatchesRestart(t *testing.T) {
	for _, how := range []string{"truncate", "replace"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "run.jsonl")
			line := func(id string) string { return `{"type":"CUSTOM","name":"` + id + `","value":1}` + "\n" }
			if err := os.WriteFile(path, []byte(line("a")+line("b")), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out, events := TailBatches(ctx, path, TailOptions{Poll: 50 * time.Millisecond})
			go func() {
				for range events {
				}
			}()
			var got []string
			next := func() model.Batch {
				select {
				case b := <-out:
					return b
				case <-time.After(5 * time.Second):
					t.Fatalf("no batch; so far %q", got)
				}
				return model.Batch{}
			}
			take := func(n int) {
				for len(got) < n {
					b := next()
					if b.Source != path {
						t.Fatalf("batch of source %q", b.Source)
					}
					if b.Restart {
						if len(b.Records) != 0 {
							t.Fatalf("a restart batch with %d records", len(b.Records))
						}
						got = append(got, "restart")
					}
					for _, r := range b.Records {
						got = append(got, string(r.Raw[len(`{"type":"CUSTOM","name":"`):][:1]))
					}
				}
			}
			take(2)
			switch how {
			case "truncate":
				if err := os.WriteFile(path, []byte(line("c")), 0o644); err != nil {
					t.Fatal(err)
				}
			case "replace":
				tmp := filepath.Join(dir, "new")
				if err := os.WriteFile(tmp, []byte(line("c")), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, path); err != nil {
					t.Fatal(err)
				}
			}
			take(4)
			if want := []string{"a", "b", "restart", "c"}; !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// A big file is sent a step at a time: the first batch comes with part of
// the file read, every batch says how far, and the last says all of it.
func TestTailBatchesBigFileInSteps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.jsonl")
	log := loggen.Generate(60_000, 4) // about 10 MB
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, events := TailBatches(ctx, path, TailOptions{})
	go func() {
		for range events {
		}
	}()
	var read int64
	batches, records := 0, 0
	want := bytes.Count(log, []byte{'\n'})
	for records < want {
		select {
		case b := <-out:
			if batches == 0 && b.Read >= int64(len(log)) {
				t.Fatalf("the first batch came after the whole file was read (%d of %d bytes)", b.Read, len(log))
			}
			if b.Read < read || b.Size != int64(len(log)) {
				t.Fatalf("batch %d: read %d (before %d), size %d of %d", batches, b.Read, read, b.Size, len(log))
			}
			read = b.Read
			batches++
			records += len(b.Records)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d records of %d after %d batches", records, want, batches)
		}
	}
	if read != int64(len(log)) || batches < 2 {
		t.Fatalf("read %d of %d bytes in %d batches", read, len(log), batches)
	}
}
