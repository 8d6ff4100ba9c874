package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/window"
)

// readBackKeep is what the screens of the read-back tests keep: small, so
// that a log of readBackEvents events is let go of and read back many
// times, as the screen does a log of millions with window.ScreenKeep.
var readBackKeep = fold.Keep{Items: 100, Content: 15, Skeletons: 40, Tombstones: fold.TombstonesRecent}

// readBackEvents is how many events the read-back tests' logs have.
const readBackEvents = 5_000

// shedScreen tails a generated log while it is written, in 64 appends,
// with the screen shedding as it goes, until all of it is on screen, and
// returns the screen and the fold of the whole log without shedding.
func shedScreen(t *testing.T) (a *tui.App, whole *fold.Fold, screen func() string) {
	t.Helper()
	a, whole, screen, _ = shedScreenOf(t)
	return a, whole, screen
}

// shedScreenOf is shedScreen, and the path of the log.
func shedScreenOf(t *testing.T) (a *tui.App, whole *fold.Fold, screen func() string, path string) {
	t.Helper()
	a, whole, screen, path, _ = shedScreenApp(t)
	return a, whole, screen, path
}

// shedScreenApp is shedScreenOf, and the App whose read indexes the screen
// reads back through.
func shedScreenApp(t *testing.T) (a *tui.App, whole *fold.Fold, screen func() string, path string, app *App) {
	t.Helper()
	log := loggen.Generate(readBackEvents, 6)
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	whole = fold.New(fold.Options{})
	whole.Apply(recs...)

	path = filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	stop := time.AfterFunc(time.Minute, cancel) // a tail that misses records ends, and the test says so
	t.Cleanup(func() { stop.Stop() })
	tail, events := sources.TailBatches(ctx, path, sources.TailOptions{Poll: 10 * time.Millisecond})
	go func() {
		for range events {
		}
	}()
	// The screen gets what the tail reads, until it has read every record
	// (a tail never ends by itself).
	ch := make(chan model.Batch, 1<<14)
	go func() {
		defer close(ch)
		n := 0
		for b := range tail {
			ch <- b
			if n += len(b.Records); n >= len(recs) {
				cancel()
				return
			}
		}
	}()
	go func() {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for rest := log; len(rest) > 0; {
			cut := min(len(rest), len(log)/64)
			if i := bytes.IndexByte(rest[cut:], '\n'); i >= 0 {
				cut += i + 1
			} else {
				cut = len(rest)
			}
			if _, err := f.Write(rest[:cut]); err != nil {
				t.Error(err)
				return
			}
			rest = rest[cut:]
			time.Sleep(5 * time.Millisecond)
		}
	}()

	opts := &Options{}
	file := func(source string) string { return fileOf(opts, source, false) }
	app = New(opts)
	a = tui.NewThreadsApp(fold.NewThreads(fold.Options{}), ch, tui.AppOptions{
		Window: window.Options{Reader: app.fileReaders(file), Keep: readBackKeep}})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	drive(a, a.Init())
	screen = func() string { return ansi.Strip(a.View().Content) }
	if s := screen(); !strings.Contains(s, "earlier items not kept") || !strings.Contains(s, "of "+strconv.Itoa(len(whole.Steps()))) {
		t.Fatalf("the tail did not shed, or did not read the whole log:\n%s", s)
	}
	return a, whole, screen, path, app
}

// firstWords is the start of the log's first user message as the
// transcript draws it: its first words on one line.
func firstWords(t *testing.T, f *fold.Fold) string {
	t.Helper()
	for _, it := range f.Items() {
		if it.Kind == model.ItemMessage && it.Role == "user" {
			return strings.Join(strings.Fields(it.Text)[:4], " ")
		}
	}
	t.Fatal("the log has no user message")
	return ""
}

// A tail of a growing file sheds its oldest items; scrolling up to the
// gap row they leave reads them back from the file, a window at a time,
// until the log's first user message is on screen again.
func TestShedThenScrollBack(t *testing.T) {
	t.Parallel()
	a, whole, screen := shedScreen(t)
	want := firstWords(t, whole)
	if strings.Contains(screen(), want) {
		t.Fatalf("the first user message %q is on screen before scrolling", want)
	}
	top := func() tea.Cmd {
		_, cmd := a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
		return cmd
	}
	cmd := top()
	if s := screen(); !strings.Contains(s, "earlier items not kept · reading back…") {
		t.Fatalf("at the top the transcript shows no gap row being read:\n%s", s)
	}
	reads := 0
	for ; reads < 10 && !strings.Contains(screen(), want); reads++ {
		drive(a, cmd)
		cmd = top()
	}
	s := screen()
	if !strings.Contains(s, want) {
		t.Fatalf("after %d reads back the first user message %q is not on screen:\n%s", reads, want, s)
	}
	if strings.Contains(s, "▲") {
		t.Errorf("the log's start is on screen, yet a gap row above it:\n%s", s)
	}
	if !regexp.MustCompile(`earlier items not kept · [0-9,]+ read back`).MatchString(s) {
		t.Errorf("the title bar does not say how many items were read back:\n%s", s)
	}
	t.Logf("%d reads back to the start", reads)
	// The first step was forgotten (two bytes of it kept): its row draws
	// it as it was, read back with the items around it.
	first := whole.Steps()[0]
	if a.Threads().Len() != 1 || a.Threads().List()[0].Fold.StepBase() == 0 {
		t.Fatal("the screen forgot no step: the check below checks nothing")
	}
	label := render.StepLabel(first)
	verb, title, ok := strings.Cut(label, " · ")
	if !ok {
		t.Fatalf("step 1's label %q names nothing after its verb: the check below checks nothing", label)
	}
	if row := verb + " · " + title[:min(len(title), 12)]; !strings.Contains(s, row) {
		t.Errorf("step 1's row does not say %q:\n%s", row, s)
	}

	// Search, filter and the cursor work over the window read back.
	keys := []tea.KeyPressMsg{{Code: '/', Text: "/"}, {Code: 'e', Text: "e"}, {Code: tea.KeyEnter}, {Code: 'n', Text: "n"},
		{Code: 'N', Text: "N"}, {Code: tea.KeyEsc}, {Code: 'f', Text: "f"}}
	for _, r := range "edit" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	keys = append(keys, tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: 'g', Text: "g"}, tea.KeyPressMsg{Code: tea.KeyDown},
		tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEsc}, tea.KeyPressMsg{Code: tea.KeyEnd})
	for _, k := range keys {
		_, cmd := a.Update(k)
		drive(a, cmd) // (a search's and a filter's ticks wait, as drive runs them)
	}
	if s := screen(); strings.Contains(s, want) {
		t.Errorf("back at the end, the log's start is still on screen:\n%s", s)
	}
}

// Seeking to the first step of a tail that shed it reads the items around
// its row and its content back from the file: the transcript shows the
// first user message and the step's row again, the panel its full content.
func TestShedThenSeekToStart(t *testing.T) {
	a, whole, screen := shedScreen(t)
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if cmd == nil {
		t.Fatal("selecting a shed step asked for nothing to be read back")
	}
	drive(a, cmd)
	s := screen()
	if !strings.Contains(s, "▶") {
		t.Errorf("the first step's row is not marked on screen:\n%s", s)
	}
	// The step's row is at the top; the message that asked for it just
	// above.
	_, cmd = a.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	drive(a, cmd)
	s = screen()
	if want := firstWords(t, whole); !strings.Contains(s, want) {
		t.Errorf("after seeking to the first step the first user message %q is not on screen:\n%s", want, s)
	}
	if strings.Contains(s, "▲") {
		t.Errorf("the log's start is on screen, yet a gap row above it:\n%s", s)
	}
	first := whole.Steps()[0]
	for _, l := range computer.PanelLines(first, 90, 30)[:3] {
		if l = strings.TrimSpace(ansi.Strip(l)); l != "" && !strings.Contains(s, l) {
			t.Errorf("the panel lacks the first step's %q:\n%s", l, s)
		}
	}
}

// A file rewritten since the screen folded it has other items: the gap row
// says reading back failed and why, and Enter tries again.
func TestShedThenReadBackRewritten(t *testing.T) {
	a, _, screen, path := shedScreenOf(t)
	if err := os.WriteFile(path, loggen.Generate(readBackEvents, 7), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cmd := a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	drive(a, cmd)
	if s := screen(); !strings.Contains(s, "reading them back failed") || !strings.Contains(s, "rewritten") {
		t.Fatalf("reading back from a rewritten file does not say so:\n%s", s)
	}
	_, cmd = a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	if cmd != nil {
		drive(a, cmd)
	}
	_, cmd = a.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !strings.Contains(screen(), "reading back…") {
		t.Errorf("Enter on the gap row does not read it again:\n%s", screen())
	}
	drive(a, cmd)
	if s := screen(); !strings.Contains(s, "reading them back failed") {
		t.Errorf("reading again from the rewritten file does not fail:\n%s", s)
	}
}

// Seeking to a shed step of a file since rewritten says so in the gap row.
func TestShedThenSeekRewritten(t *testing.T) {
	a, _, screen, path := shedScreenOf(t)
	if err := os.WriteFile(path, loggen.Generate(readBackEvents, 7), 0o644); err != nil {
		t.Fatal(err)
	}
	_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	drive(a, cmd)
	_, cmd = a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	drive(a, cmd)
	if s := screen(); !strings.Contains(s, "reading them back failed:") || !strings.Contains(s, "rewritten") {
		t.Fatalf("seeking to a step of a rewritten file does not say so:\n%s", s)
	}
}
