package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// reopenLayout is a form a log is kept in, and how an agent adds to it.
type reopenLayout struct {
	name string
	// of is the log of events (JSON Lines) in this form.
	of func(jsonl []byte) []byte
	// more appends the records to the log at path as its writer does
	// (nil: nothing can be appended, as to a closed array).
	more func(t *testing.T, path string, recs []model.Record)
}

// reopenLayouts are JSON Lines, a JSON array as --record leaves it while
// it records (no closing bracket; --record --append adds to it, and ends
// it), and one closed.
var reopenLayouts = []reopenLayout{
	{"jsonl", func(b []byte) []byte { return b }, func(t *testing.T, path string, recs []model.Record) {
		var b bytes.Buffer
		for _, r := range recs {
			b.Write(r.Raw)
			b.WriteByte('\n')
		}
		appendTo(t, path, b.Bytes())
	}},
	{"recording", func(b []byte) []byte { return bytes.TrimSuffix(loggen.ToArray(b), []byte("\n]\n")) },
		func(t *testing.T, path string, recs []model.Record) {
			rec, err := sources.CreateRecorder(path, true) // --record --append
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.Write(recs...); err != nil {
				t.Fatal(err)
			}
			if err := rec.Close(); err != nil { // the recording ends: "]"
				t.Fatal(err)
			}
		}},
	{"closed array", loggen.ToArray, nil},
	{"recorded", func(b []byte) []byte { return recorded(b, false) }, nil},
	{"recorded and closed", func(b []byte) []byte { return recorded(b, true) }, nil},
}

// recorded is the log of events (JSON Lines) as --record writes it: "[",
// the events separated by ",\n", and "]" once the recording ends (closed).
func recorded(jsonl []byte, closed bool) []byte {
	recs, err := sources.ReadAll(bytes.NewReader(jsonl))
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "recorded")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rec.json")
	rec, err := sources.CreateRecorder(path, false)
	if err != nil {
		panic(err)
	}
	if err := rec.Write(recs...); err != nil {
		panic(err)
	}
	if closed {
		if err := rec.Close(); err != nil {
			panic(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	if !closed {
		rec.Close()
	}
	return b
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeLog(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// liveView is a resume view's follow of a log, read by a test: the fold
// it took up, its batches, and the statuses it said.
type liveView struct {
	t       *testing.T
	rv      *resumeView
	taken   *fold.Threads
	batches <-chan model.Batch
	status  <-chan string
	got     []model.Batch
	said    []string
	cancel  context.CancelFunc
}

// openView follows path as a screen's resume view does, up to the fold
// taken up: the tail starts once start is called.
func openView(t *testing.T, a *App, path string) *liveView {
	t.Helper()
	rv := a.resumeFor(identified(t, path))
	if rv == nil {
		t.Fatal("no resume view for the log")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	v := &liveView{t: t, rv: rv, cancel: cancel}
	v.batches, v.status = rv.follow(ctx, a.Options, path)
	t.Cleanup(func() {
		cancel()
		for range v.status {
		}
	})
	v.taken = <-rv.taken
	return v
}

// start lets the tail start, as the screen does once it has the fold.
func (v *liveView) start() { close(v.rv.shown) }

// recordsEnd is where the last record of the log at path ends: its end,
// or before the closing bracket of an array.
func recordsEnd(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasSuffix(b, []byte("]\n")) {
		b = bytes.TrimRight(b[:len(b)-2], "\n")
	}
	return int64(len(b))
}

// until reads batches until one ends with the log's last record, and
// returns them; the statuses said meanwhile are kept.
func (v *liveView) until(path string) []model.Batch {
	v.t.Helper()
	end := recordsEnd(v.t, path)
	status := v.status
	var got []model.Batch
	for {
		select {
		case b, ok := <-v.batches:
			if !ok {
				v.t.Fatalf("the view's batches ended before byte %d", end)
			}
			got = append(got, b)
			if b.End == end {
				v.got = append(v.got, got...)
				return got
			}
		case s, ok := <-status:
			if !ok {
				status = nil // ended: only batches are left to read
				continue
			}
			v.said = append(v.said, s)
		}
	}
}

// waitSaid reads statuses until one holds what.
func (v *liveView) waitSaid(what string) {
	v.t.Helper()
	v.waitFor(what, func(s string) bool { return strings.Contains(s, what) })
}

// waitFor reads statuses until one is as ok wants (what says that).
func (v *liveView) waitFor(what string, ok func(string) bool) {
	v.t.Helper()
	for !slices.ContainsFunc(v.said, ok) {
		s, open := <-v.status
		if !open {
			v.t.Fatalf("the view never said %s; it said %q", what, v.said)
		}
		v.said = append(v.said, s)
	}
}

// ended stops the view and returns all it said.
func (v *liveView) ended() []string {
	v.cancel()
	for s := range v.status {
		v.said = append(v.said, s)
	}
	return v.said
}

// freshScreen is the screen of the log at path read from its top to end,
// with nothing kept.
func freshScreen(t *testing.T, path string, end int64) *tui.App {
	t.Helper()
	_, ch, _ := followTo(t, nil, path, end)
	return screenOf(t, nil, nil, nil, ch)
}

// lastStep matches the step bar when it shows the last step.
var lastStep = regexp.MustCompile(`step (\d+) of (\d+)`)

// showsLastStep tells whether the screen's step bar shows its last step.
func showsLastStep(a *tui.App) bool {
	m := lastStep.FindStringSubmatch(body(a))
	return m != nil && m[1] == m[2]
}

// sameThreads reports how the threads of got differ from want's ("" when
// they do not); seqs says their records are numbered alike (not so after
// a restart, which numbers on).
func sameThreads(got, want *fold.Threads, seqs bool) string {
	if got.Len() != want.Len() {
		return "another number of threads"
	}
	for i, th := range want.List() {
		g := got.List()[i]
		if g.ID != th.ID || g.Records != th.Records || seqs && g.LastSeq != th.LastSeq ||
			g.Fold.ItemsMade() != th.Fold.ItemsMade() || g.Fold.StepCount() != th.Fold.StepCount() {
			return "thread " + th.ID
		}
	}
	return ""
}

// A big log opened again where the last screen of it left off shows its
// end at once, before its tail has read a byte, and reads on from there:
// no restart and no word of a truncation, what is appended folds on into
// the threads taken up, and the screen is then what a screen that read the
// whole log shows. So for JSON Lines and for a JSON array, closed or as
// --record leaves it while it records.
func TestResumeReopenShowsTheEndAndReadsOn(t *testing.T) {
	t.Parallel()
	for i, l := range reopenLayouts {
		t.Run(l.name, func(t *testing.T) {
			// The agent's conversation: 8,000 events on disk, 300 to come.
			all := loggen.Generate(8_300, int64(20+i))
			cut := 0
			for range 8_000 {
				cut += bytes.IndexByte(all[cut:], '\n') + 1
			}
			more, err := sources.ReadAll(bytes.NewReader(all[cut:]))
			if err != nil {
				t.Fatal(err)
			}
			log := l.of(all[:cut])
			path := t.TempDir() + "/run.log"
			writeLog(t, path, log)
			a := smallResume(t)

			end := recordsEnd(t, path)
			first := a.resumeFor(identified(t, path))
			_, ch, got := followTo(t, first, path, end)
			screenOf(t, first, a, nil, ch)
			keptSeq := got[len(got)-1].Records[len(got[len(got)-1].Records)-1].Seq
			if !first.store.has(path) {
				t.Fatal("the first screen kept no resume point")
			}

			v := openView(t, a, path)
			if v.taken == nil {
				t.Fatal("the log opened again is not taken up where the first screen left off")
			}
			// The screen as it is before a batch comes (the input said to
			// end, as the whole read's has, so that neither says it
			// watches).
			before := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), closedWith(nil), tui.AppOptions{})
			before.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
			before.Update(tui.TakenUpMsg{Threads: v.taken})
			drive(before, before.Init())
			fresh := freshScreen(t, path, end)
			if !showsLastStep(before) || body(before) != body(fresh) {
				t.Errorf("taken up, before the tail read anything, the screen is not the end a whole read shows:\n%s\n---\n%s", body(before), body(fresh))
			}
			if d := sameThreads(v.taken, fresh.Threads(), true); d != "" {
				t.Errorf("the threads taken up differ from a whole read's: %s", d)
			}
			v.start()

			if l.more != nil {
				l.more(t, path, more)
				batches := v.until(path)
				if first := batches[0]; first.Restart || len(first.Records) == 0 || first.Records[0].Seq != keptSeq+1 {
					t.Fatalf("the tail taken up starts with restart %v, %d records; want record %d", first.Restart, len(first.Records), keptSeq+1)
				}
				screen := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), closedWith(batches), tui.AppOptions{})
				screen.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
				screen.Update(tui.TakenUpMsg{Threads: v.taken})
				drive(screen, screen.Init())
				whole := freshScreen(t, path, recordsEnd(t, path))
				if d := sameThreads(screen.Threads(), whole.Threads(), true); d != "" {
					t.Errorf("what was appended did not fold on as a whole read folds it: %s", d)
				}
				if !showsLastStep(screen) || body(screen) != body(whole) {
					t.Errorf("after the appends the screen is not what a whole read shows:\n%s\n---\n%s", body(screen), body(whole))
				}
				if startedOver(title(screen)) {
					t.Errorf("after the appends the title says %q", title(screen))
				}
			}

			v.waitSaid("taken up at")
			if l.more == nil {
				// Nothing comes of a closed array taken up after its last
				// event; a tail that refused the point would send its
				// restart at once, with the records read again.
				select {
				case b := <-v.batches:
					v.got = append(v.got, b)
				case <-time.After(time.Second):
				}
			}
			said := v.ended()
			for _, b := range v.got {
				if b.Restart {
					t.Error("the tail taken up restarted")
				}
			}
			if slices.ContainsFunc(said, startedOver) || startedOver(title(before)) {
				t.Errorf("the view said %q, the title %q; want it taken up, never started over", said, title(before))
			}
			// The title bar puts " · " between its words itself.
			if !slices.ContainsFunc(said, takenUpAt.MatchString) {
				t.Errorf("the view said %q; want \"taken up at N MB\" once it followed", said)
			}
		})
	}
}

// takenUpAt is what the view says once it follows a log it took up.
var takenUpAt = regexp.MustCompile(`^taken up at \d+ MB$`)

// title is the screen's title bar.
func title(a *tui.App) string {
	first, _, _ := strings.Cut(ansi.Strip(a.View().Content), "\n")
	return first
}

// startedOver tells whether words say a file was truncated or started
// over, as the title bar says a restart.
func startedOver(words string) bool {
	return strings.Contains(words, "truncated") || strings.Contains(words, "started over")
}

// closedWith is a closed channel holding batches.
func closedWith(batches []model.Batch) <-chan model.Batch {
	ch := make(chan model.Batch, len(batches))
	for _, b := range batches {
		ch <- b
	}
	close(ch)
	return ch
}

// rewrite makes the log at path b in place: cut to b when b is shorter,
// else written over from its start, never made empty meanwhile.
func rewrite(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) < st.Size() {
		err = f.Truncate(int64(len(b)))
	} else {
		_, err = f.WriteAt(b, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// flipDigit changes the last digit in b[from:to] to another, in place.
func flipDigit(t *testing.T, b []byte, from, to int) {
	t.Helper()
	for i := to - 1; i >= from; i-- {
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = '0' + (b[i]-'0'+1)%10
			return
		}
	}
	t.Fatalf("no digit in bytes %d to %d", from, to)
}

// A log taken up that then got shorter, or whose start or whose bytes
// before the point taken up changed (rewritten in place, its size and
// its head kept), starts over: the tail restarts, the title says the file
// started over and no longer that it was taken up, and the screen drops
// what it took up and shows what a screen of the new content shows. So whether the change came before the
// tail started (after the resume point was loaded) or while it followed.
func TestResumeRestartsWhenTheLogChanged(t *testing.T) {
	t.Parallel()
	changes := []struct {
		name   string
		change func(t *testing.T, l reopenLayout, b []byte) []byte
	}{
		{"cut shorter", func(t *testing.T, l reopenLayout, b []byte) []byte {
			i := len(b)/2 + bytes.Index(b[len(b)/2:], []byte("\n{")) // a record's start
			if l.name == "jsonl" {
				return b[:i+1]
			}
			return b[:i-1] // after the record before, without ",\n"
		}},
		{"start rewritten", func(t *testing.T, _ reopenLayout, b []byte) []byte {
			at := bytes.Index(b, []byte(`"runId":"`)) // in the file's first bytes
			flipDigit(t, b, at, at+len(`"runId":"e6e217b9`))
			return b
		}},
		{"rewritten before the point, same head", func(t *testing.T, _ reopenLayout, b []byte) []byte {
			flipDigit(t, b, len(b)-64, len(b))
			return b
		}},
	}
	for i, l := range reopenLayouts[:2] {
		for j, c := range changes {
			for _, live := range []bool{false, true} {
				name := l.name + "/" + c.name + "/before the tail started"
				if live {
					name = l.name + "/" + c.name + "/while it followed"
				}
				t.Run(name, func(t *testing.T) {
					log := l.of(loggen.Generate(6_000, int64(60+10*i+j)))
					path := t.TempDir() + "/run.log"
					writeLog(t, path, log)
					a := smallResume(t)
					first := a.resumeFor(identified(t, path))
					_, ch, _ := followToEnd(t, first, path)
					screenOf(t, first, a, nil, ch)

					v := openView(t, a, path)
					if v.taken == nil {
						t.Fatal("the log is not taken up")
					}
					if live {
						v.start()
						v.waitSaid("taken up at")
					}
					rewrite(t, path, c.change(t, l, bytes.Clone(log)))
					if !live {
						v.start()
					}
					batches := v.until(path)
					if !slices.ContainsFunc(batches, func(b model.Batch) bool { return b.Restart }) {
						t.Fatal("no restart")
					}
					// A stopped clock: the title tells a restart for 5 s.
					at := time.Now()
					screen := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), closedWith(batches), tui.AppOptions{Now: func() time.Time { return at }})
					screen.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
					screen.Update(tui.TakenUpMsg{Threads: v.taken})
					drive(screen, screen.Init())
					fresh := freshScreen(t, path, recordsEnd(t, path))
					if d := sameThreads(screen.Threads(), fresh.Threads(), false); d != "" || body(screen) != body(fresh) {
						t.Errorf("after the restart the screen is not that of the new content (%s):\n%s\n---\n%s", d, body(screen), body(fresh))
					}
					if !startedOver(title(screen)) {
						t.Errorf("after the restart the title says %q; want that the file started over", title(screen))
					}
					// The view no longer says the log was taken up.
					v.waitFor("nothing once the file started over", func(s string) bool { return s == "" })
				})
			}
		}
	}
}
