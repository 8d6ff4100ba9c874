package sources

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentwatch/agentwatch/model"
)

// folderLog is what a test collected from a FollowFolder.
type folderLog struct {
	mu      sync.Mutex
	recs    map[string][]model.Record // by source
	first   map[string]time.Time      // when a source's first batch arrived
	events  []FolderEvent
	batches int
	done    chan struct{} // closed once both channels closed
}

// startFolder follows pattern until the test ends, collecting what comes.
func startFolder(t *testing.T, pattern string, opts FolderOptions) (*folderLog, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, events := FollowFolder(ctx, pattern, opts)
	l := &folderLog{recs: map[string][]model.Record{}, first: map[string]time.Time{}, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for out != nil || events != nil {
			select {
			case b, ok := <-out:
				if !ok {
					out = nil
					continue
				}
				l.mu.Lock()
				if _, ok := l.first[b.Source]; !ok {
					l.first[b.Source] = time.Now()
				}
				l.recs[b.Source] = append(l.recs[b.Source], b.Records...)
				l.batches++
				l.mu.Unlock()
			case e, ok := <-events:
				if !ok {
					events = nil
					continue
				}
				l.mu.Lock()
				l.events = append(l.events, e)
				l.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-l.done:
		case <-time.After(5 * time.Second):
			t.Error("FollowFolder's channels not closed after cancel")
		}
	})
	return l, cancel
}

// waitFor polls cond for up to 5 s: less than a folder's file poll
// (folderTailPoll), so what a test waits for comes from a change event or
// the folder's own poll.
func (l *folderLog) waitFor(t *testing.T, what string, cond func(l *folderLog) bool) {
	t.Helper()
	l.waitLonger(t, 5*time.Second, what, cond)
}

// waitLonger polls cond for up to d.
func (l *folderLog) waitLonger(t *testing.T, d time.Duration, what string, cond func(l *folderLog) bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		l.mu.Lock()
		ok := cond(l)
		l.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			l.mu.Lock()
			defer l.mu.Unlock()
			t.Fatalf("timed out waiting for %s; %d sources, events %v", what, len(l.recs), l.eventList())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitRecords waits for want (event types) from path and checks Seq and content.
func (l *folderLog) waitRecords(t *testing.T, path string, want []string) {
	t.Helper()
	l.waitFor(t, fmt.Sprintf("%d records from %s", len(want), path), func(l *folderLog) bool { return len(l.recs[path]) >= len(want) })
	l.mu.Lock()
	defer l.mu.Unlock()
	checkRecords(t, path, l.recs[path], want)
}

func checkRecords(t *testing.T, path string, recs []model.Record, want []string) {
	t.Helper()
	if got := types(recs); !slices.Equal(got, want) {
		t.Fatalf("%s records:\n got %v\nwant %v", path, got, want)
	}
	for i, r := range recs {
		if r.Seq != uint64(i+1) || !strings.Contains(string(r.Raw), fmt.Sprintf(`"n":%d}`, i)) {
			t.Fatalf("%s record %d has Seq %d: %s", path, i, r.Seq, r.Raw)
		}
	}
}

// has reports whether an event like e (Path and the field set) came.
func (l *folderLog) has(e FolderEvent) bool { return l.count(e) > 0 }

func (l *folderLog) count(e FolderEvent) int {
	n := 0
	for _, got := range l.events {
		if got.Path == e.Path && got.Added == e.Added && got.Skipped == e.Skipped && got.Event == e.Event && (got.Err != nil) == (e.Err != nil) {
			n++
		}
	}
	return n
}

func (l *folderLog) skipped(path string) []string {
	var why []string
	for _, e := range l.events {
		if e.Path == path && e.Skipped != "" {
			why = append(why, e.Skipped)
		}
	}
	return why
}

func (l *folderLog) eventList() string {
	var b strings.Builder
	for i, e := range l.events {
		if i == 20 {
			fmt.Fprintf(&b, " … %d more", len(l.events)-i)
			break
		}
		b.WriteString(" " + filepath.Base(e.Path) + ":")
		switch {
		case e.Added:
			b.WriteString("added")
		case e.Skipped != "":
			b.WriteString("skipped(" + e.Skipped + ")")
		case e.Err != nil:
			b.WriteString("err(" + e.Err.Error() + ")")
		default:
			b.WriteString(e.Event.String())
		}
	}
	return b.String()
}

// settle lets several polls pass, so that anything extra would show.
func settle(poll time.Duration) { time.Sleep(3 * poll) }

// inotifyInstances counts this process's inotify file descriptors, -1 when
// /proc cannot tell.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	n := 0
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && link == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// TestFollowFolderThousandFiles follows a folder of 1,000 logs: every one is
// started in name order, every record arrives numbered per file, and the
// whole folder costs one inotify instance.
func TestFollowFolderThousandFiles(t *testing.T) {
	const files = 1000
	dir := t.TempDir()
	s, want := lines(0, 3)
	var paths []string
	for i := range files {
		path := filepath.Join(dir, fmt.Sprintf("thread-%04d.jsonl", i))
		appendFile(t, path, s)
		paths = append(paths, path)
	}
	before := inotifyInstances(t)
	l, _ := startFolder(t, dir, FolderOptions{})
	// Opening 1,000 files under the race detector on a busy machine takes a while.
	l.waitLonger(t, 30*time.Second, "records of every file", func(l *folderLog) bool {
		if len(l.recs) < files {
			return false
		}
		for _, r := range l.recs {
			if len(r) < len(want) {
				return false
			}
		}
		return true
	})
	if before >= 0 {
		used := inotifyInstances(t) - before
		t.Logf("inotify instances for %d files: %d", files, used)
		if used > 1 {
			t.Errorf("%d inotify instances for one folder, want at most 1", used)
		}
	}
	l.mu.Lock()
	var added []string
	for _, e := range l.events {
		if e.Added {
			added = append(added, e.Path)
		}
	}
	for _, p := range paths {
		checkRecords(t, p, l.recs[p], want)
	}
	t.Logf("%d records from %d files in %d batches", files*len(want), len(l.recs), l.batches)
	l.mu.Unlock()
	if !slices.Equal(added, paths) {
		t.Fatalf("files added out of name order or not all: %d added", len(added))
	}

	// One of them grows.
	p := paths[files/2]
	s2, ts := lines(3, 6)
	appendFile(t, p, s2)
	l.waitRecords(t, p, append(slices.Clone(want), ts...))
}

// TestFollowFolderNewFile: a file created while the folder is watched (empty
// first, then written, as an agent does) is followed within a second. The
// bound is a failure bound, not a measurement; the time is logged.
func TestFollowFolderNewFile(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "a.jsonl")
	s, want := lines(0, 2)
	appendFile(t, first, s)
	before := inotifyInstances(t)
	l, _ := startFolder(t, dir, FolderOptions{}) // the default one-second poll
	l.waitRecords(t, first, want)
	watched := before >= 0 && inotifyInstances(t) > before

	path := filepath.Join(dir, "b.jsonl")
	created := time.Now()
	appendFile(t, path, "")
	appendFile(t, path, s)
	l.waitRecords(t, path, want)
	l.mu.Lock()
	took := l.first[path].Sub(created)
	l.mu.Unlock()
	t.Logf("a new file's first records arrived %v after it was created (watcher: %v)", took.Round(10*time.Microsecond), watched)
	if watched && took >= time.Second {
		t.Errorf("a new file took %v to arrive, want well under 1 s", took)
	}
}

func TestFollowFolderAppendAndTruncate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	other := filepath.Join(dir, "other.jsonl")
	s, want := lines(0, 4)
	appendFile(t, path, s)
	appendFile(t, other, s)
	l, _ := startFolder(t, dir, FolderOptions{Poll: 50 * time.Millisecond})
	l.waitRecords(t, path, want)
	s, ts := lines(4, 9)
	appendFile(t, path, s)
	want = append(want, ts...)
	l.waitRecords(t, path, want)

	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	s, ts = lines(9, 11)
	appendFile(t, path, s)
	l.waitFor(t, "truncation", func(l *folderLog) bool { return l.has(FolderEvent{Path: path, Event: TailTruncated}) })
	l.waitRecords(t, path, append(want, ts...))
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.has(FolderEvent{Path: other, Event: TailTruncated}) || len(l.recs[other]) != 4 {
		t.Fatalf("the other file was disturbed: %d records, events%s", len(l.recs[other]), l.eventList())
	}
}

// TestFollowFolderSkips: hidden files, text files and folders are reported
// once each, whether there at the start or created while watching; an empty
// file is decided by what is written to it.
func TestFollowFolderSkips(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 3)
	hidden := filepath.Join(dir, ".run.jsonl.swp")
	notes := filepath.Join(dir, "notes.txt")
	sub := filepath.Join(dir, "old")
	empty := filepath.Join(dir, "empty.jsonl")
	appendFile(t, hidden, s)
	appendFile(t, notes, "remember the milk\n")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	appendFile(t, empty, "")
	const poll = 50 * time.Millisecond
	l, _ := startFolder(t, dir, FolderOptions{Poll: poll})
	l.waitFor(t, "the first skips", func(l *folderLog) bool {
		return len(l.skipped(hidden)) > 0 && len(l.skipped(notes)) > 0 && len(l.skipped(sub)) > 0
	})

	// Created while watching: a hidden temp file, a README, a text file
	// created empty and a log created empty; the first empty file is written.
	hidden2 := filepath.Join(dir, ".tmp-1234")
	readme := filepath.Join(dir, "README")
	laterText := filepath.Join(dir, "later.txt")
	laterLog := filepath.Join(dir, "later.jsonl")
	appendFile(t, hidden2, s)
	appendFile(t, readme, "# runs\n")
	appendFile(t, laterText, "")
	appendFile(t, laterLog, "")
	settle(poll) // the empty ones are seen, and stay undecided
	l.mu.Lock()
	if l.has(FolderEvent{Path: empty, Added: true}) || l.has(FolderEvent{Path: laterLog, Added: true}) || len(l.skipped(laterText)) > 0 {
		t.Errorf("an empty file was decided:%s", l.eventList())
	}
	l.mu.Unlock()
	appendFile(t, empty, s)
	appendFile(t, laterLog, s)
	appendFile(t, laterText, "not JSON\n")
	appendFile(t, notes, "and the eggs\n") // a skipped file that changes stays skipped
	l.waitRecords(t, empty, want)
	l.waitRecords(t, laterLog, want)
	l.waitFor(t, "the later skips", func(l *folderLog) bool {
		return len(l.skipped(hidden2)) > 0 && len(l.skipped(readme)) > 0 && len(l.skipped(laterText)) > 0
	})
	settle(poll)

	l.mu.Lock()
	defer l.mu.Unlock()
	for path, why := range map[string]string{hidden: "hidden", hidden2: "hidden", notes: "not an event log", readme: "not an event log", laterText: "not an event log", sub: "a folder"} {
		got := l.skipped(path)
		if len(got) != 1 || !strings.Contains(got[0], why) {
			t.Errorf("%s: skipped %q, want once for %q", filepath.Base(path), got, why)
		}
		if l.has(FolderEvent{Path: path, Added: true}) || len(l.recs[path]) > 0 {
			t.Errorf("%s was followed", filepath.Base(path))
		}
	}
	for _, path := range []string{empty, laterLog} {
		if n := l.count(FolderEvent{Path: path, Added: true}); n != 1 {
			t.Errorf("%s added %d times", filepath.Base(path), n)
		}
	}
}

// TestFollowFolderGlob follows only the files a pattern matches, also those
// created later.
func TestFollowFolderGlob(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 2)
	for _, name := range []string{"a.jsonl", "b.json", "c.jsonl", "notes.txt", ".d.jsonl"} {
		appendFile(t, filepath.Join(dir, name), s)
	}
	const poll = 50 * time.Millisecond
	l, _ := startFolder(t, filepath.Join(dir, "*.jsonl"), FolderOptions{Poll: poll})
	l.waitRecords(t, filepath.Join(dir, "a.jsonl"), want)
	l.waitRecords(t, filepath.Join(dir, "c.jsonl"), want)
	appendFile(t, filepath.Join(dir, "e.json"), s)
	appendFile(t, filepath.Join(dir, "f.jsonl"), s)
	l.waitRecords(t, filepath.Join(dir, "f.jsonl"), want)
	settle(poll)
	l.mu.Lock()
	defer l.mu.Unlock()
	var sources []string
	for src := range l.recs {
		sources = append(sources, filepath.Base(src))
	}
	slices.Sort(sources)
	if want := []string{"a.jsonl", "c.jsonl", "f.jsonl"}; !slices.Equal(sources, want) {
		t.Errorf("followed %v, want %v", sources, want)
	}
	// Glob matches hidden files; they are still not logs to follow.
	for _, e := range l.events {
		if e.Skipped != "" && filepath.Base(e.Path) != ".d.jsonl" {
			t.Errorf("unexpected skip: %s: %s", e.Path, e.Skipped)
		}
	}
}

// TestFollowFolderGlobFolders follows a pattern whose folder part is a
// pattern too: no watcher, the poll alone.
func TestFollowFolderGlobFolders(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 2)
	for _, run := range []string{"run1", "run2"} {
		if err := os.Mkdir(filepath.Join(dir, run), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	one := filepath.Join(dir, "run1", "events.jsonl")
	two := filepath.Join(dir, "run2", "events.jsonl")
	appendFile(t, one, s)
	before := inotifyInstances(t)
	l, _ := startFolder(t, filepath.Join(dir, "run*", "events.jsonl"), FolderOptions{Poll: 50 * time.Millisecond})
	l.waitRecords(t, one, want)
	if before >= 0 && inotifyInstances(t) != before {
		t.Errorf("a watcher was made for a pattern of folders")
	}
	appendFile(t, two, s)
	l.waitRecords(t, two, want)
	s2, ts := lines(2, 4)
	appendFile(t, one, s2)
	l.waitRecords(t, one, append(want, ts...))
}

// TestFollowFolderPollOnly runs a folder with the poll as the only signal, as
// on a network filesystem: new files, appends and truncation all arrive.
func TestFollowFolderPollOnly(t *testing.T) {
	folderNotify = false
	defer func() { folderNotify = true }()
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	s, want := lines(0, 3)
	appendFile(t, path, s)
	l, _ := startFolder(t, dir, FolderOptions{Poll: 50 * time.Millisecond})
	l.waitRecords(t, path, want)
	later := filepath.Join(dir, "later.jsonl")
	appendFile(t, later, s)
	l.waitRecords(t, later, want)
	s2, ts := lines(3, 5)
	appendFile(t, path, s2)
	want = append(want, ts...)
	l.waitRecords(t, path, want)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	s3, ts := lines(5, 6)
	appendFile(t, path, s3)
	l.waitFor(t, "truncation", func(l *folderLog) bool { return l.has(FolderEvent{Path: path, Event: TailTruncated}) })
	l.waitRecords(t, path, append(want, ts...))
}

// TestFolderDeaf: a file that the listing finds and no change event names
// makes the folder poll every file; one whose event comes late does not.
func TestFolderDeaf(t *testing.T) {
	dir := t.TempDir()
	f := newFolder(dir, FolderOptions{Poll: time.Second})
	f.watching = true // as if watched, but no event will come
	f.scan(true)
	appendFile(t, filepath.Join(dir, "late.jsonl"), "")
	f.scan(true)
	if !f.heard() {
		t.Fatal("deaf after one listing: the file's event may still be on its way")
	}
	f.notice(fsnotify.Event{Name: filepath.Join(dir, "late.jsonl"), Op: fsnotify.Create})
	f.scan(true)
	if !f.heard() {
		t.Fatal("deaf although the file's event came")
	}
	appendFile(t, filepath.Join(dir, "unheard.jsonl"), "")
	f.scan(true)
	f.scan(true)
	if f.heard() {
		t.Fatal("a file no event named did not make the folder deaf")
	}
}

// TestFollowFolderStops: cancelling closes both channels and every
// goroutine FollowFolder started ends.
func TestFollowFolderStops(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 2)
	for i := range 50 {
		appendFile(t, filepath.Join(dir, fmt.Sprintf("%02d.jsonl", i)), s)
	}
	appendFile(t, filepath.Join(dir, "pending.jsonl"), "")
	base := runtime.NumGoroutine()
	l, cancel := startFolder(t, dir, FolderOptions{Poll: 50 * time.Millisecond})
	l.waitRecords(t, filepath.Join(dir, "49.jsonl"), want)
	cancel()
	select {
	case <-l.done:
	case <-time.After(5 * time.Second):
		t.Fatal("channels not closed after cancel")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after cancel, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTailWake: a Tail with Wake makes no watcher of its own and reads
// when woken.
func TestTailWake(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	s, want := lines(0, 3)
	appendFile(t, path, s)
	before := inotifyInstances(t)
	wakeUp := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	recs, events := Tail(ctx, path, TailOptions{Poll: time.Hour, Wake: wakeUp})
	drainTailEvents(events)
	var got []model.Record
	read := func(n int) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for len(got) < n {
			select {
			case b := <-recs:
				got = append(got, b...)
			case <-timeout:
				t.Fatalf("got %v", types(got))
			}
		}
	}
	read(3)
	if before >= 0 && inotifyInstances(t) != before {
		t.Error("a Tail with Wake made a watcher")
	}
	s2, ts := lines(3, 5)
	appendFile(t, path, s2)
	wake(wakeUp)
	read(5)
	checkRecords(t, path, got, append(want, ts...))
}

// Files the Whole hook takes are read by it, sent as one batch, and not
// tailed; the others are tailed as before.
func TestFollowFolderWhole(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(`{"type":"RUN_STARTED","threadId":"a","runId":"r"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.special"), []byte(`{"whatever":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	made := model.Record{Seq: 1, Raw: []byte(`{"type":"CUSTOM","name":"made","value":1}`)}
	opts := FolderOptions{Whole: func(path string) ([]model.Record, bool) {
		if filepath.Ext(path) == ".special" {
			return []model.Record{made}, true
		}
		return nil, false
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, events := FollowFolder(ctx, dir, opts)
	go func() {
		for range events {
		}
	}()
	got := map[string][]model.Record{}
	deadline := time.After(5 * time.Second)
	for len(got) < 2 {
		select {
		case b := <-out:
			got[filepath.Base(b.Source)] = append(got[filepath.Base(b.Source)], b.Records...)
		case <-deadline:
			t.Fatalf("batches so far: %v", got)
		}
	}
	if r := got["b.special"]; len(r) != 1 || string(r[0].Raw) != string(made.Raw) {
		t.Errorf("the whole file gave %v", r)
	}
	if r := got["a.jsonl"]; len(r) != 1 || r[0].Event == nil {
		t.Errorf("the tailed file gave %v", r)
	}
}

// A file there at the start is judged by what the caller already knew of
// it (FolderOptions.Known), its head not read again; a file that comes
// later, or an empty one once written to, is looked at through OpenHead.
func TestFollowFolderKnown(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 2)
	log := filepath.Join(dir, "a.jsonl")
	notes := filepath.Join(dir, "notes.txt")
	empty := filepath.Join(dir, "empty.jsonl")
	appendFile(t, log, s)
	appendFile(t, notes, "remember the milk\n")
	appendFile(t, empty, "")
	known := map[string]Verdict{}
	for _, p := range []string{log, notes, empty} {
		var l Look
		l.Info, l.Err = os.Stat(p)
		if l.Err == nil && l.Info.Size() > 0 {
			l.Head, l.Err = readHead(p, sniffBytes, nil)
		}
		known[p] = l.Verdict(p)
	}
	var mu sync.Mutex
	opened := map[string]int{}
	openHead := func(path string) (io.ReadCloser, error) {
		mu.Lock()
		opened[path]++
		mu.Unlock()
		return os.Open(path)
	}
	heads := func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		return opened[path]
	}
	const poll = 50 * time.Millisecond
	l, _ := startFolder(t, dir, FolderOptions{Poll: poll, Known: known, OpenHead: openHead})
	l.waitRecords(t, log, want)
	l.waitFor(t, "notes.txt skipped", func(l *folderLog) bool { return len(l.skipped(notes)) > 0 })
	if why := l.skipped(notes); why[0] != known[notes].NotALog() {
		t.Errorf("notes.txt skipped because %q; want what was known, %q", why[0], known[notes].NotALog())
	}
	for _, p := range []string{log, notes, empty} {
		if n := heads(p); n != 0 {
			t.Errorf("%s: head read %d times; what was known should do", filepath.Base(p), n)
		}
	}

	later := filepath.Join(dir, "later.jsonl")
	appendFile(t, later, s)
	appendFile(t, empty, s)
	l.waitRecords(t, later, want)
	l.waitRecords(t, empty, want)
	for _, p := range []string{later, empty} {
		if n := heads(p); n != 1 {
			t.Errorf("%s: head read %d times; want once, when it was found to hold something", filepath.Base(p), n)
		}
	}
}
