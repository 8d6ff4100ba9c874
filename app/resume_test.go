package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/window"
)

// smallResume is an App whose screens of logs of a test's size keep
// where they left off, in a cache folder of the test's.
func smallResume(t testing.TB) *App {
	t.Helper()
	a := New(&Options{CacheDir: t.TempDir()})
	a.resumeMinBytes = 1
	return a
}

// followToEnd follows path as the screen's view does, until a batch ends
// at the file's end: the fold taken up (nil when none) and the batches,
// in a closed channel.
func followToEnd(t testing.TB, rv *resumeView, path string) (*fold.Threads, <-chan model.Batch, []model.Batch) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return followTo(t, rv, path, st.Size())
}

// followTo is followToEnd up to a batch that ends at end (a closed
// array's last record ends before its bracket).
func followTo(t testing.TB, rv *resumeView, path string, end int64) (*fold.Threads, <-chan model.Batch, []model.Batch) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	batches, status := rv.follow(ctx, &Options{}, path)
	go func() {
		for range status {
		}
	}()
	var taken *fold.Threads
	if rv != nil {
		taken = <-rv.taken
		close(rv.shown) // the screen has it
	}
	var got []model.Batch
	for b := range batches {
		got = append(got, b)
		if b.End == end {
			break
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("the tail did not reach byte %d", end)
	}
	ch := make(chan model.Batch, len(got))
	for _, b := range got {
		ch <- b
	}
	close(ch)
	return taken, ch, got
}

// screenOf folds batches on a screen that is given the fold taken (when
// not nil) before them, to their end, and keeps where it is as a view's
// screen does (when rv is not nil), waiting for that to be saved.
func screenOf(t testing.TB, rv *resumeView, a *App, taken *fold.Threads, ch <-chan model.Batch) *tui.App {
	t.Helper()
	screen := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), ch, tui.AppOptions{Window: window.Options{Checkpoint: rv.keeper(a, fold.Options{})}})
	screen.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	if taken != nil {
		screen.Update(tui.TakenUpMsg{Threads: taken})
	}
	drive(screen, screen.Init())
	waitSaved(t, rv)
	return screen
}

// waitSaved waits until rv saves nothing, and fails on a save that failed.
func waitSaved(t testing.TB, rv *resumeView) {
	t.Helper()
	if rv == nil {
		return
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		rv.mu.Lock()
		saving, failed := rv.saving, rv.failed
		rv.mu.Unlock()
		if failed != nil {
			t.Fatal(failed)
		}
		if !saving {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the save does not end")
		}
	}
}

// body is the screen without its title bar, which counts what was shed.
func body(a *tui.App) string {
	s := ansi.Strip(a.View().Content)
	_, rest, _ := strings.Cut(s, "\n")
	return rest
}

// A screen that quits keeps where it left off; the next screen of the
// log, grown meanwhile, takes up there: it reads only what is new, and
// shows what a screen that read the whole log shows.
func TestResumeTakesUpWhereTheScreenLeftOff(t *testing.T) {
	path, recs, _ := generatedLog(t, 20_000, 3)
	a := smallResume(t)
	size := func() int64 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}

	first := a.resumeFor(identified(t, path))
	if first == nil {
		t.Fatal("no resume view for the log")
	}
	taken, ch, _ := followToEnd(t, first, path)
	if taken != nil {
		t.Fatal("the first screen of the log takes up a fold")
	}
	screenOf(t, first, a, nil, ch)
	kept := size()

	// The agent goes on: another conversation is appended.
	more := loggen.Generate(3_000, 4)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(more); err != nil {
		t.Fatal(err)
	}
	f.Close()

	if _, from, ok := newResumeStore(a.CacheDir).load(path, a.Options, fold.Options{}); !ok || from.Offset != kept || from.Seq != uint64(len(recs)) {
		t.Fatalf("kept: %v, at %+v; want byte %d, record %d", ok, from, kept, len(recs))
	}
	second := a.resumeFor(identified(t, path))
	taken, ch, got := followToEnd(t, second, path)
	if taken == nil {
		t.Fatal("the second screen of the log does not take up where the first left off")
	}
	if got[0].Restart || got[0].Records[0].Seq != uint64(len(recs))+1 {
		t.Fatalf("the taken-up tail starts with restart %v, record %d; want no restart, record %d", got[0].Restart, got[0].Records[0].Seq, len(recs)+1)
	}
	resumed := screenOf(t, second, a, taken, ch)
	if resumed.Threads() != taken {
		t.Fatal("the screen does not show the fold taken up")
	}

	_, ch, _ = followToEnd(t, New(&Options{}).resumeFor(identified(t, path)), path) // no cache: the plain tail
	fresh := screenOf(t, nil, nil, nil, ch)
	whole := fresh.Threads()

	if taken.Len() != whole.Len() {
		t.Fatalf("taken up: %d threads; read whole: %d", taken.Len(), whole.Len())
	}
	for i, th := range whole.List() {
		got := taken.List()[i]
		if got.ID != th.ID || got.Records != th.Records || got.FirstSeq != th.FirstSeq || got.LastSeq != th.LastSeq ||
			got.Fold.ItemsMade() != th.Fold.ItemsMade() || got.Fold.StepCount() != th.Fold.StepCount() || got.Title() != th.Title() {
			t.Errorf("thread %d: taken up %s %d records %d–%d, %d items, %d steps, %q; read whole %s %d records %d–%d, %d items, %d steps, %q",
				i, got.ID, got.Records, got.FirstSeq, got.LastSeq, got.Fold.ItemsMade(), got.Fold.StepCount(), got.Title(),
				th.ID, th.Records, th.FirstSeq, th.LastSeq, th.Fold.ItemsMade(), th.Fold.StepCount(), th.Title())
		}
	}
	if body(resumed) != body(fresh) {
		t.Errorf("the screen taken up differs from the screen that read the whole log:\n%s\n---\n%s", body(resumed), body(fresh))
	}
	if _, from, ok := newResumeStore(a.CacheDir).load(path, a.Options, fold.Options{}); !ok || from.Offset != size() {
		t.Errorf("the taken-up screen kept: %v, at %+v; want the end, byte %d", ok, from, size())
	}
}

// A resume point is taken up only for the file it was kept for, as it
// was: a log rewritten, cut shorter, folded with other tool kinds, a
// resume point damaged, or --from-start, read the log from its start.
func TestResumeRefusesWhatChanged(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, path string, opts *Options)
	}{
		{"kept as it was", func(*testing.T, string, *Options) {}},
		{"rewritten", func(t *testing.T, path string, _ *Options) {
			b, _ := os.ReadFile(path)
			b[len(b)-10] ^= 1 // inside the last bytes read: the mark
			os.WriteFile(path, b, 0o644)
		}},
		{"head rewritten", func(t *testing.T, path string, _ *Options) {
			b, _ := os.ReadFile(path)
			copy(b, `{"type":"RUN_STARTED","threadId":"other"`)
			os.WriteFile(path, b, 0o644)
		}},
		{"cut shorter", func(t *testing.T, path string, _ *Options) {
			st, _ := os.Stat(path)
			os.Truncate(path, st.Size()/2)
		}},
		{"other tool kinds", func(t *testing.T, _ string, opts *Options) {
			kinds := filepath.Join(t.TempDir(), "kinds.json")
			os.WriteFile(kinds, []byte(`{"bash":"execute"}`), 0o644)
			opts.ToolKinds = kinds
		}},
		{"damaged", func(t *testing.T, path string, opts *Options) {
			store := newResumeStore(opts.CacheDir)
			abs, _ := filepath.Abs(path)
			b, _ := os.ReadFile(store.file(abs))
			os.WriteFile(store.file(abs), b[:len(b)/2], 0o600)
		}},
		{"from start", func(_ *testing.T, _ string, opts *Options) { opts.FromStart = true }},
		{"another build", func(t *testing.T, path string, opts *Options) {
			store := newResumeStore(opts.CacheDir)
			abs, _ := filepath.Abs(path)
			b, _ := os.ReadFile(store.file(abs))
			var p resumePoint
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			p.Build += " and another"
			if b, err := json.Marshal(&p); err != nil || os.WriteFile(store.file(abs), b, 0o600) != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, _, _ := generatedLog(t, 3_000, 5)
			a := smallResume(t)
			rv := a.resumeFor(identified(t, path))
			_, ch, _ := followToEnd(t, rv, path)
			screenOf(t, rv, a, nil, ch)

			c.change(t, path, a.Options)
			fo, err := a.FoldOptions()
			if err != nil {
				t.Fatal(err)
			}
			again := a.resumeFor(identified(t, path))
			if again == nil {
				t.Fatal("no resume view")
			}
			took := false
			if again.load {
				_, _, took = again.store.load(path, a.Options, fo)
			}
			if took != (c.name == "kept as it was") {
				t.Errorf("taken up: %v", took)
			}
		})
	}
}

// Only the newest resume points are kept, each readable by the user
// alone.
func TestResumeKeepsTheNewest(t *testing.T) {
	a := smallResume(t)
	store := newResumeStore(a.CacheDir)
	var paths []string
	for i := range resumeKeep + 3 {
		path, _, _ := generatedLog(t, 200, int64(i))
		rv := a.resumeFor(identified(t, path))
		_, ch, _ := followToEnd(t, rv, path)
		screenOf(t, rv, a, nil, ch)
		old := time.Now().Add(time.Duration(i-100) * time.Minute)
		abs, _ := filepath.Abs(path)
		os.Chtimes(store.file(abs), old, old)
		paths = append(paths, abs)
	}
	entries, err := os.ReadDir(store.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != resumeKeep {
		t.Fatalf("%d resume points kept; want %d", len(entries), resumeKeep)
	}
	for i, p := range paths {
		_, err := os.Stat(store.file(p))
		if kept := err == nil; kept != (i >= len(paths)-resumeKeep) {
			t.Errorf("resume point %d kept: %v", i, kept)
		}
	}
	info, err := os.Stat(store.file(paths[len(paths)-1]))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("a resume point has mode %v; want 0600", info.Mode().Perm())
	}
	if dir, _ := os.Stat(store.dir); dir.Mode().Perm() != 0o700 {
		t.Errorf("the resume folder has mode %v; want 0700", dir.Mode().Perm())
	}
}

// What a save cut short by the end of its program left is cleared once
// it is an hour old; a save under way is left alone.
func TestResumePruneClearsLeftovers(t *testing.T) {
	store := newResumeStore(t.TempDir())
	os.MkdirAll(store.dir, 0o700)
	old := filepath.Join(store.dir, ".resume-1")
	fresh := filepath.Join(store.dir, ".resume-2")
	os.WriteFile(old, []byte("{"), 0o600)
	os.WriteFile(fresh, []byte("{"), 0o600)
	hourAgo := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, hourAgo, hourAgo)
	store.prune()
	if _, err := os.Stat(old); err == nil {
		t.Error("a leftover of two hours ago is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a save under way was removed")
	}
}

// The screen folds on while what it kept is saved beside it: the saves
// read what the screen's fold shares with them, never a change of it
// (go test -race).
func TestResumeSavesWhileTheScreenFolds(t *testing.T) {
	path, _, _ := generatedLog(t, 20_000, 8)
	a := smallResume(t)
	st, _ := os.Stat(path)
	rv := a.resumeFor(identified(t, path))
	_, _, got := followToEnd(t, rv, path)
	keep := rv.keeper(a, fold.Options{})
	// As the screen does: fold, hand a checkpoint over, shed, fold on.
	ts := fold.NewThreads(fold.Options{})
	for _, b := range got {
		for i := 0; i < len(b.Records); i += 100 {
			ts.Apply(path, b.Records[i:min(i+100, len(b.Records))]...)
			ts.Trim(fold.Keep{Items: 200, Content: 20, Skeletons: fold.All, Tombstones: fold.TombstonesAll})
		}
		keep(path, ts.Checkpoint(), b.End, b.Records[len(b.Records)-1].Seq)
	}
	waitSaved(t, rv)
	if _, from, ok := newResumeStore(a.CacheDir).load(path, a.Options, fold.Options{}); !ok || from.Offset > st.Size() {
		t.Fatalf("kept: %v at %+v", ok, from)
	}
}

// A log named otherwise the second time (from its folder, then from
// elsewhere) is taken up all the same, and what is new folds on into the
// threads taken up, not into threads of another name.
func TestResumeUnderAnotherName(t *testing.T) {
	path, recs, _ := generatedLog(t, 5_000, 9)
	a := smallResume(t)
	t.Chdir(filepath.Dir(path))
	name := filepath.Base(path)
	rv := a.resumeFor(identified(t, name))
	_, ch, _ := followToEnd(t, rv, name)
	screenOf(t, rv, a, nil, ch)

	// More of the same conversation: records of its last thread.
	tail := recs[len(recs)-50:]
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tail {
		f.Write(append(bytes.Clone(r.Raw), '\n'))
	}
	f.Close()

	again := a.resumeFor(identified(t, path))
	taken, ch, _ := followToEnd(t, again, path)
	if taken == nil {
		t.Fatal("the log named by its full path does not take up where it was left under its short name")
	}
	screen := screenOf(t, again, a, taken, ch)
	for _, th := range screen.Threads().List() {
		if th.Source != path {
			t.Errorf("a thread of source %q; want all of %q", th.Source, path)
		}
	}
	if screen.Threads().Len() != taken.Len() {
		t.Errorf("%d threads after folding on; %d were taken up", screen.Threads().Len(), taken.Len())
	}
}

// A fold too big to be worth keeping is not exported at all, and an older
// resume point of the log goes: it would be taken up wrongly.
func TestResumeLetsABigFoldGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big-message.jsonl")
	text := strings.Repeat("words and more words ", 150_000) // 3 MB, kept twice
	log := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n" +
		`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}` + "\n" +
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + text + `"}` + "\n" +
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}` + "\n" +
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	a := smallResume(t)
	store := newResumeStore(a.CacheDir)
	os.MkdirAll(store.dir, 0o700)
	older := []byte(`{"version":1}`) // one kept earlier
	os.WriteFile(store.file(path), older, 0o600)
	rv := a.resumeFor(identified(t, path))
	_, ch, _ := followToEnd(t, rv, path)
	screenOf(t, rv, a, nil, ch)
	entries, _ := os.ReadDir(store.dir)
	if kept, _ := os.ReadFile(store.file(path)); len(entries) != 1 || !bytes.Equal(kept, older) {
		t.Errorf("for a fold of a 3 MB message: %d files, the one kept earlier now %q; want it alone, as it was", len(entries), kept)
	}
}

// exportGuess is near what a fold exports to, for a screen's fold of a
// generated log and for one big message, so a save can let a big fold go
// before it is exported.
func TestExportGuess(t *testing.T) {
	path, _, _ := generatedLog(t, 20_000, 10)
	_, ch, _ := followToEnd(t, nil, path)
	logFold := screenOf(t, nil, nil, nil, ch).Threads()
	recs, err := sources.ReadAll(strings.NewReader(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("words ", 200_000) + `"}
{"type":"TEXT_MESSAGE_END","messageId":"m"}
`))
	if err != nil {
		t.Fatal(err)
	}
	message := fold.NewThreads(fold.Options{})
	message.Apply("m", recs...)
	for name, ts := range map[string]*fold.Threads{"generated log": logFold, "big message": message} {
		snap, err := ts.Export()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		guess, real := exportGuess(ts), int64(len(b))
		if guess < real/2 || guess > real*2 {
			t.Errorf("%s: guessed %d bytes, exports %d", name, guess, real)
		}
	}
}

// identified is the file at path as the screen that follows it has it.
func identified(t testing.TB, path string) *Source {
	t.Helper()
	src, err := New(&Options{}).IdentifyFollowed(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}
