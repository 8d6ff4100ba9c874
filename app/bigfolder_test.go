package app

import (
	tea "charm.land/bubbletea/v2"
	"context"
	"fmt"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/charmbracelet/x/ansi"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/claudegen"
	"github.com/agentwatch/agentwatch/sources"
)

// countingFile counts the bytes read from a file opened through a test's
// openHead; it seeks as the file does.
type countingFile struct {
	*os.File
	n  *int64
	mu *sync.Mutex
}

func (c countingFile) Read(b []byte) (int, error) {
	k, err := c.File.Read(b)
	c.mu.Lock()
	*c.n += int64(k)
	c.mu.Unlock()
	return k, err
}

// TestGlancedFolderList: the screen's list of a generated Claude folder
// has every session, with the title a fold gives it, and
// reads no more of a session than its head and tail.
func TestGlancedFolderList(t *testing.T) {
	dir := t.TempDir()
	sessions, err := claudegen.Write(dir, claudegen.Options{Sessions: 40, Projects: 4, Big: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	read := map[string]*int64{}
	a := New(&Options{})
	a.glanceAlways = true
	a.openHead = func(path string) (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		if read[path] == nil {
			read[path] = new(int64)
		}
		return countingFile{f, read[path], &mu}, nil
	}
	_, rows := listClaudeFolder(t, a, dir)
	if len(rows) != len(sessions) {
		t.Fatalf("%d rows, want %d", len(rows), len(sessions))
	}
	for _, s := range sessions {
		if got := rows[s.Path]; got != s.Title {
			t.Errorf("%s: title %q, want %q", s.ID, got, s.Title)
		}
		mu.Lock()
		n := read[s.Path]
		mu.Unlock()
		if n == nil || *n > min(s.Size, sources.GlanceHeadBytes+sources.GlanceTailBytes) {
			t.Errorf("%s (%d bytes): read %v", s.ID, s.Size, n)
		}
	}
}

// followGlanced follows the Claude Code configuration folder dir as the
// screen does (its sessions glanced at, a session folded when open names
// it) until ctx ends, its poll shortened as the folder tests do; src is
// the folder identified.
func followGlanced(ctx context.Context, t *testing.T, a *App, dir string) (src *Source, batches <-chan model.Batch, open func(string)) {
	t.Helper()
	src, err := a.ClaudeSessions(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if !src.glance {
		t.Fatal("the folder is not glanced at")
	}
	fo := a.folderOptions(src)
	fo.Poll = 50 * time.Millisecond // the folder is listed again, and looked at, that often
	open = glanceOptions(ctx, &fo)
	batches, events := sources.FollowFolder(ctx, src.followed(), fo)
	go func() {
		for range events {
		}
	}()
	return src, src.projects.noting(ctx, batches), open
}

// glancesOf are the last glances at every session of the Claude Code
// configuration folder dir, by file, once every file of it had one.
func glancesOf(t *testing.T, dir string) map[string]model.Glance {
	t.Helper()
	a := New(&Options{})
	a.glanceAlways = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, batches, _ := followGlanced(ctx, t, a, dir)
	out := map[string]model.Glance{}
	for b := range batches {
		if b.Glance != nil {
			out[b.Source] = *b.Glance
		}
		if len(b.Records) > 0 {
			t.Fatalf("%s was folded, not glanced at", b.Source)
		}
		if len(out) == len(src.Files) {
			break
		}
	}
	return out
}

// foldOf is the one thread of the session file at path as agentwatch
// steps folds it, and its steps as that prints them.
func foldOf(t *testing.T, path string) (*fold.Thread, string) {
	t.Helper()
	a := New(&Options{})
	src, err := a.Identify(path)
	if err != nil {
		t.Fatal(err)
	}
	ts, _, err := a.FoldThreads(src)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 1 {
		t.Fatalf("%s folds to %d threads", path, ts.Len())
	}
	var steps strings.Builder
	PrintThreadSteps(&steps, ts.List())
	return ts.List()[0], steps.String()
}

// A glance at each session (its 64 KiB head and 64 KiB tail, the tail
// read further back when it holds no time) gives the row a fold of the
// whole file gives: its title, last activity and project. The sessions
// are the fixtures, generated ones of 20–200 KB and one of MBs, and one
// whose last line is a tool result longer than the tail window, and one
// whose tail window holds no line with a time.
func TestGlanceIsTheFoldsRow(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/claude")); err != nil {
		t.Fatal(err)
	}
	sessions, err := claudegen.Write(dir, claudegen.Options{Sessions: 30, Projects: 3, Big: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	long := sessions[3]
	f, err := os.OpenFile(long.Path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	late := long.Last.Add(time.Minute).UTC().Format("2006-01-02T15:04:05.000Z")
	fmt.Fprintf(f, `{"parentUuid":"a0-end","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_0_0","content":"%s"}]},"uuid":"big-result","timestamp":"%s","cwd":"%s","sessionId":"%s"}`+"\n",
		strings.Repeat("x", 3*sources.GlanceTailBytes), late, long.Project, long.ID)
	f.Close()
	// Another ends in more lines without a time than the tail window holds.
	untimed := sessions[4]
	var book strings.Builder
	for i := 0; book.Len() < 2*sources.GlanceTailBytes; i++ {
		fmt.Fprintf(&book, `{"type":"file-history-snapshot","messageId":"m%d","snapshot":{"messageId":"m%d","trackedFileBackups":{}},"isSnapshotUpdate":true}`+"\n", i, i)
	}
	f, err = os.OpenFile(untimed.Path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(book.String())
	f.Close()

	glances := glancesOf(t, dir)
	checked := 0
	for path, g := range glances {
		if g.ID == "" {
			continue // not a session's file (an agent's alone): tailed, not glanced at
		}
		th, _ := foldOf(t, path)
		last := th.Last
		if _, err := os.Stat(strings.TrimSuffix(path, ".jsonl")); err == nil {
			// The fold reads the session's subagents too, whose lines may
			// come after the session's own last one; a glance reads the
			// session's file alone.
			last = g.Last
		}
		if g.Title != th.Title() || !g.Last.Equal(last) {
			t.Errorf("%s: glance %q at %v, fold %q at %v", filepath.Base(path), g.Title, g.Last, th.Title(), th.Last)
		}
		checked++
	}
	if checked < len(sessions)+2 {
		t.Errorf("%d sessions checked of %d generated and the fixtures", checked, len(sessions))
	}
	if g := glances[long.Path]; g.Last.Format("2006-01-02T15:04:05.000Z") != late {
		t.Errorf("the session ending in a long line: last %v, want %s", g.Last, late)
	}
	if g := glances[untimed.Path]; !g.Last.Equal(untimed.Last) {
		t.Errorf("the session ending in lines without a time: last %v, want %v", g.Last, untimed.Last)
	}
}

// screenRun runs a screen's commands as the program does, each on its own
// goroutine, handing their messages to the App on the test's.
type screenRun struct {
	t    *testing.T
	a    *tui.App
	msgs chan tea.Msg
	done chan struct{}
}

func newScreenRun(t *testing.T, a *tui.App) *screenRun {
	r := &screenRun{t: t, a: a, msgs: make(chan tea.Msg), done: make(chan struct{})}
	t.Cleanup(func() { close(r.done) })
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	r.run(a.Init())
	return r
}

// run runs cmd on its own goroutine; its message comes to until.
func (r *screenRun) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		select {
		case r.msgs <- msg:
		case <-r.done:
		}
	}()
}

// press hands the screen a key, as typed.
func (r *screenRun) press(keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		_, cmd := r.a.Update(k)
		r.run(cmd)
	}
}

// until hands the screen the messages its commands give until ok says
// what the test waits for came; a minute without it fails the test (the
// wait is for a follower that said nothing, not a measure of time).
func (r *screenRun) until(what string, ok func() bool) {
	r.t.Helper()
	stuck := time.NewTimer(time.Minute)
	defer stuck.Stop()
	for !ok() {
		select {
		case msg := <-r.msgs:
			if b, isBatch := msg.(tea.BatchMsg); isBatch {
				for _, c := range b {
					r.run(c)
				}
				continue
			}
			if msg != nil {
				_, cmd := r.a.Update(msg)
				r.run(cmd)
			}
		case <-stuck.C:
			r.t.Fatalf("%s never came; the screen:\n%s", what, r.screen())
		}
	}
}

// screen is what the screen shows, without its styles.
func (r *screenRun) screen() string { return ansi.Strip(r.a.View().Content) }

// typed are the key presses of typing s.
func typed(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, c := range s {
		out = append(out, tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	return out
}

// The screen's list of a Claude folder: each row carries its session's
// project; opening a listed session (/ its id, Enter, Enter) folds it
// whole, its steps those agentwatch steps prints of its file; and a
// session that grows while listed has its row redrawn from a new glance,
// its title and last activity those of the lines written.
func TestGlancedFolderOnScreen(t *testing.T) {
	dir := t.TempDir()
	sessions, err := claudegen.Write(dir, claudegen.Options{Sessions: 12, Projects: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	a := New(&Options{})
	a.glanceAlways = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, batches, open := followGlanced(ctx, t, a, dir)
	var mu sync.Mutex
	glances := map[string]model.Glance{} // the last glance at each file
	screenBatches := make(chan model.Batch)
	go func() { // what the screen is sent, noted for the test on its way
		defer close(screenBatches)
		for b := range batches {
			mu.Lock()
			if b.Glance != nil {
				glances[b.Source] = *b.Glance
			}
			mu.Unlock()
			select {
			case screenBatches <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	ts := fold.NewThreads(fold.Options{})
	scr := newScreenRun(t, tui.NewThreadsApp(ts, screenBatches, tui.AppOptions{Title: "claude", Project: src.projects.project, Open: open}))
	rowOf := func(s claudegen.Session) string {
		for _, l := range strings.Split(scr.screen(), "\n") {
			if strings.Contains(l, s.ID[:7]+"…") {
				return l
			}
		}
		return ""
	}
	scr.until("every session's row", func() bool {
		for _, s := range sessions {
			if rowOf(s) == "" {
				return false
			}
		}
		return true
	})
	for _, s := range sessions {
		if got := src.projects.project(s.Path); got != s.Project {
			t.Errorf("%s: project %q, want %q", s.ID, got, s.Project)
		}
		if row := rowOf(s); !strings.Contains(row, filepath.Base(s.Project)) {
			t.Errorf("%s: the row does not name its project %s: %q", s.ID, s.Project, row)
		}
	}
	if ts.Len() != 0 {
		t.Fatalf("%d sessions folded before any was opened", ts.Len())
	}

	// Opening a session folds it, all of it.
	opened := sessions[5]
	scr.press(typed("/")...)
	scr.press(typed(opened.ID)...)
	scr.press(tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEnter})
	_, want := foldOf(t, opened.Path)
	if want == "" {
		t.Fatal("agentwatch steps prints nothing of the session")
	}
	steps := func() string {
		var got strings.Builder
		PrintThreadSteps(&got, ts.List())
		return got.String()
	}
	scr.until("the opened session's steps, as agentwatch steps prints them", func() bool {
		return ts.Len() == 1 && ts.List()[0].Source == opened.Path && steps() == want
	})
	if !strings.Contains(scr.screen(), "step") {
		t.Errorf("the opened session is not on screen:\n%s", scr.screen())
	}
	scr.press(tea.KeyPressMsg{Code: tea.KeyEscape}, tea.KeyPressMsg{Code: tea.KeyEscape})

	// A listed session that grows has its row redrawn.
	grows := sessions[8]
	at := grows.Last.Add(time.Hour).UTC()
	f, err := os.OpenFile(grows.Path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `{"parentUuid":"x","isSidechain":false,"type":"user","message":{"role":"user","content":"one more thing"},"uuid":"late","timestamp":"%s","cwd":"%s","sessionId":"%s"}`+"\n", at.Format("2006-01-02T15:04:05.000Z"), grows.Project, grows.ID)
	fmt.Fprintf(f, `{"type":"custom-title","customTitle":"Renamed while listed","sessionId":"%s"}`+"\n", grows.ID)
	f.Close()
	st, err := os.Stat(grows.Path)
	if err != nil {
		t.Fatal(err)
	}
	scr.until("the grown session's new glance", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return glances[grows.Path].Size == st.Size()
	})
	mu.Lock()
	g := glances[grows.Path]
	mu.Unlock()
	if g.Title != "Renamed while listed" || !g.Last.Equal(at) {
		t.Errorf("the grown session's glance: %q at %v, want %q at %v", g.Title, g.Last, "Renamed while listed", at)
	}
	if changed, ok := src.projects.changedAt(grows.Path); !ok || !changed.Equal(st.ModTime()) {
		t.Errorf("the grown session changed at %v (%v), want %v", changed, ok, st.ModTime())
	}
	// The glance is seen on its way to the screen, which may not have
	// taken it yet: the screen is waited for, not looked at once.
	scr.until("the grown session's row redrawn", func() bool {
		return strings.Contains(scr.screen(), "Renamed while listed")
	})
}
