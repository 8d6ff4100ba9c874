package app

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/window"
)

// A file read back from is indexed once and read through its index; when
// it grows, items only its new part has are read back too (it is indexed
// again), and items read before it grew are still the whole fold's.
func TestReadIndexFollowsAGrowingFile(t *testing.T) {
	log := loggen.Generate(40_000, 3)
	cut := bytes.LastIndexByte(log[:len(log)/2], '\n') + 1
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, log[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply(path, recs...)
	whole := ts.List()[0]
	half := fold.NewThreads(fold.Options{})
	half.Apply(path, recs[:bytes.Count(log[:cut], []byte{'\n'})]...)
	made := half.List()[0].Fold.ItemsMade()

	a := New(&Options{})
	read := itemsOnly(itemReader(a, func(s string) string { return s })(path))
	want := func(from, to uint64) window.ItemsWanted {
		return window.ItemsWanted{Source: path, Thread: whole.ID, Step: -1, Max: int(to - from), From: from, To: to}
	}
	got, err := read(want(made/2, made/2+300))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 300 {
		t.Fatalf("read back %d items, want 300", len(got))
	}
	sameItems(t, got, whole.Fold)
	built := indexOf(t, a, path)

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(log[cut:]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, err = read(want(made/2, made/2+300)); err != nil || len(got) != 300 {
		t.Fatalf("after the file grew, items it had: %d, %v", len(got), err)
	}
	if indexOf(t, a, path) != built {
		t.Error("the file was indexed again for items its index had")
	}
	more := whole.Fold.ItemsMade()
	if got, err = read(want(more-400, more-100)); err != nil || len(got) != 300 {
		t.Fatalf("items only the grown file has: %d, %v", len(got), err)
	}
	sameItems(t, got, whole.Fold)
	if indexOf(t, a, path) == built {
		t.Error("items only the grown file has were read without indexing it again")
	}
}

// Only the newest readIndexesKept files keep their index; a file whose
// index went is indexed again, and reads the same.
func TestReadIndexesKeepTheNewest(t *testing.T) {
	var paths []string
	var wholes []*fold.Thread
	for i := range readIndexesKept + 1 {
		p, whole := readItemsLog(t, 6_000, int64(20+i))
		paths, wholes = append(paths, p), append(wholes, whole)
	}
	a := New(&Options{})
	readAll := func() {
		for i, p := range paths {
			got, err := itemsOnly(itemReader(a, func(s string) string { return s })(p))(window.ItemsWanted{Source: p, Thread: wholes[i].ID, Step: -1, Max: 50, From: 10, To: 60})
			if err != nil || len(got) != 50 {
				t.Fatalf("%s: %d items, %v", p, len(got), err)
			}
			sameItems(t, got, wholes[i].Fold)
		}
	}
	readAll()
	a.indexes.mu.Lock()
	var kept []string
	for _, x := range a.indexes.kept {
		kept = append(kept, x.path)
	}
	a.indexes.mu.Unlock()
	if len(kept) != readIndexesKept || kept[0] == paths[0] {
		t.Fatalf("indexes kept for %v, want the newest %d", kept, readIndexesKept)
	}
	readAll()
}

// indexOf is the timeline path's read index in a holds now.
func indexOf(t *testing.T, a *App, path string) *replay.Timeline {
	t.Helper()
	x, err := a.indexes.use(path, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.mu.Unlock()
	return x.tl
}

// A log with unreadable lines among its events, terminal escapes in an
// agent's text and a last line cut short reads back what the whole fold
// has, the unreadable lines' problem rows included, with no error; the
// text read back is the agent's as it was (the transcript makes it safe,
// as it does for what it kept).
func TestReadIndexBadInput(t *testing.T) {
	good := loggen.Generate(8_000, 5)
	lines := bytes.SplitAfter(good, []byte("\n"))
	var log []byte
	for i, l := range lines {
		log = append(log, l...)
		switch i {
		case 100:
			log = append(log, "{not json\n"...)
		case 200:
			log = append(log, "\x00\x01\x02 binary junk\n"...)
		case 300:
			log = append(log, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"\u001b]52;c;aGk=\u0007\u001b[2J"}`+"\n"...)
		}
	}
	log = append(log, `{"type":"TEXT_MESSAGE_CONT`...) // a line still being written
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log[:bytes.LastIndexByte(log, '\n')+1]))
	if err != nil {
		t.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply(path, recs...)
	whole := ts.List()[0]
	if len(whole.Fold.Diagnostics()) == 0 {
		t.Fatal("the bad lines made no problem: the test tests nothing")
	}
	read := itemsOnly(itemReader(New(&Options{}), func(s string) string { return s })(path))
	for from := uint64(1); from < whole.Fold.ItemsMade(); from += 400 {
		to := min(from+400, whole.Fold.ItemsMade())
		got, err := read(window.ItemsWanted{Source: path, Thread: whole.ID, Step: -1, Max: 400, From: from, To: to})
		if err != nil {
			t.Fatalf("items %d–%d: %v", from, to, err)
		}
		sameItems(t, got, whole.Fold)
	}
	// A step back, too.
	s, err := stepReader(New(&Options{}), func(s string) string { return s })(path, whole.ID, 3, whole.Fold.Steps()[3].ToolCallID)
	if err != nil || s.ToolCallID != whole.Fold.Steps()[3].ToolCallID {
		t.Fatalf("step 4 read back: %v, %v", s, err)
	}
}

// A file of readAheadFrom or more is indexed as soon as the view starts
// reading it, in the background, so that its first read back finds the
// index made; a smaller file is indexed at its first read back, and one
// more than the indexes kept never lets another's index go for it.
func TestReadIndexMadeAhead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, events int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, loggen.Generate(events, 3), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small, big := write("small.jsonl", 2_000), write("big.jsonl", 60_000)
	if st, _ := os.Stat(big); st.Size() < readAheadFrom {
		t.Fatalf("the big log is %d bytes, under %d", st.Size(), readAheadFrom)
	}
	a := New(&Options{})
	readers := a.fileReaders(func(s string) string { return s })
	building := func(path string) (kept, made bool) {
		a.indexes.mu.Lock()
		defer a.indexes.mu.Unlock()
		for _, x := range a.indexes.kept {
			if x.path == path {
				x.mu.Lock()
				defer x.mu.Unlock()
				return true, x.building != nil || x.log != nil
			}
		}
		return false, false
	}
	tell := func(path string) {
		r, ok := readers(path).(window.FileReader)
		if !ok {
			t.Fatalf("the reader of %s is told nothing of the view", path)
		}
		r.Reading(&window.Had{})
	}

	tell(small)
	if kept, _ := building(small); kept {
		t.Error("a small file is indexed before anything is read back")
	}
	tell(big)
	if kept, made := building(big); !kept || !made {
		t.Fatalf("a big file is not indexed as the view starts reading it (kept %v, indexing %v)", kept, made)
	}
	x, err := a.indexes.use(big, fold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tl := x.tl
	x.mu.Unlock()
	if tl == nil || tl.Len() == 0 {
		t.Fatal("the index made ahead is empty")
	}
	if indexOf(t, a, big) != tl {
		t.Error("the index made ahead was made again for a read")
	}

	// The indexes kept are full: a third file waits for its first read.
	other := write("other.jsonl", 60_000)
	indexOf(t, a, small)
	tell(other)
	if kept, _ := building(other); kept {
		t.Error("a file made ahead let another file's index go")
	}
}

// An index let go while it is being made (another file's took its place,
// or the file changed) stops being made, and a read after makes it anew.
func TestReadIndexStoppedWhileMade(t *testing.T) {
	path, whole := readItemsLog(t, 60_000, 4)
	a := New(&Options{})
	a.indexes.warm(path, fold.Options{})
	x := a.indexes.kept[0]
	x.mu.Lock()
	b := x.building
	x.close()
	x.mu.Unlock()
	if b == nil {
		t.Fatal("nothing was being made")
	}
	<-b.done // (close waited for it)
	got, err := itemsOnly(itemReader(a, func(s string) string { return s })(path))(window.ItemsWanted{Source: path, Thread: whole.ID, Step: -1, Max: 100, From: 1000, To: 1100})
	if err != nil || len(got) != 100 {
		t.Fatalf("after the index made ahead was stopped: %d items, %v", len(got), err)
	}
	sameItems(t, got, whole.Fold)
}
