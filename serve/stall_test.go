package serve

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// busyShow is a show whose screens change every cell at every frame, so a
// terminal that takes nothing is soon sent more than its client holds.
type busyShow struct{}

func (busyShow) Title() string { return "busy" }

func (busyShow) Screen(context.Context) (Screen, error) { return Screen{Model: &busyScreen{}}, nil }

// busyScreen draws its frame number, then every cell a letter that
// changes with each frame.
type busyScreen struct{ frame, w, h int }

// busyTick is a busyScreen's next frame.
type busyTick struct{}

func (b *busyScreen) tick() tea.Cmd {
	return tea.Tick(10*time.Millisecond, func(time.Time) tea.Msg { return busyTick{} })
}

func (b *busyScreen) Init() tea.Cmd { return b.tick() }

func (b *busyScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.w, b.h = msg.Width, msg.Height
	case busyTick:
		b.frame++
		return b, b.tick()
	}
	return b, nil
}

func (b *busyScreen) View() tea.View {
	lines := []string{fmt.Sprintf("frame %d", b.frame)}
	for y := 1; y < b.h; y++ {
		line := make([]byte, b.w)
		for x := range line {
			line[x] = byte('a' + (x+y+b.frame)%26)
		}
		lines = append(lines, string(line))
	}
	return tea.NewView(strings.Join(lines, "\n"))
}

// frameShown is the frame number on a busy screen (-1 for none).
func frameShown(v *testViewer) int {
	m := regexp.MustCompile(`frame (\d+)`).FindStringSubmatch(v.screen())
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// A viewer whose terminal takes nothing is dropped once a write has waited
// StallTimeout, and its place is free again; another viewer goes on as
// before.
func TestViewerThatNeverReadsIsDropped(t *testing.T) {
	ts := startShow(t, busyShow{}, Config{StallTimeout: 300 * time.Millisecond, MaxSessions: 2}, nil)
	watching := ts.view(t, ts.allowed, 100, 30)
	watching.waitFor("frame ")

	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", MaxRows, MaxColumns, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // and never read
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	gone := make(chan struct{})
	go func() {
		client.Wait()
		close(gone)
	}()
	select {
	case <-gone:
	case <-time.After(waitLimit):
		t.Fatalf("a viewer that reads nothing is still connected; the log says:\n%s", ts.log)
	}
	if !strings.Contains(ts.log.String(), "dropped: its terminal took nothing for 300ms") {
		t.Errorf("the log does not say why the viewer went:\n%s", ts.log)
	}
	for deadline := time.Now().Add(waitLimit); !strings.Contains(ts.log.String(), "left after"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the dropped viewer's session never ended; the log says:\n%s", ts.log)
		}
	}
	next := ts.view(t, ts.allowed, 80, 24)
	next.waitFor("frame ")
	seen := frameShown(watching)
	for deadline := time.Now().Add(waitLimit); frameShown(watching) <= seen+10; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the other viewer's screen stopped at frame %d", seen)
		}
	}
}
