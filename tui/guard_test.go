package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
)

// panicky panics where it is told to: on the key "u" in Update, while
// drawing after the key "v", and in a command (alone or in a batch) after
// "c" or "b".
type panicky struct{ drawPanics bool }

func (p *panicky) Init() tea.Cmd { return nil }

func (p *panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	boom := func() tea.Msg { panic("the command broke") }
	switch k.String() {
	case "u":
		var m map[string]int
		m["x"] = 1
	case "v":
		p.drawPanics = true
	case "c":
		return p, boom
	case "b":
		return p, tea.Batch(func() tea.Msg { return nil }, boom)
	}
	return p, nil
}

func (p *panicky) View() tea.View {
	if p.drawPanics {
		panic("the view broke")
	}
	return tea.NewView("fine")
}

// A panic in Update, View or a command (also one of a batch) becomes a
// page saying what went wrong and where it was kept; the report is made
// once; after it only q quits, other keys do nothing; the program goes on
// until q.
func TestGuardCatchesPanics(t *testing.T) {
	for _, tc := range []struct {
		key, during, says string
	}{
		{"u", "update tea.KeyPressMsg", "assignment to entry in nil map"},
		{"v", "view", "the view broke"},
		{"c", "command", "the command broke"},
		{"b", "command", "the command broke"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			var mu sync.Mutex
			var reports []Crash
			g := Guard(&panicky{}, func(c Crash) string {
				mu.Lock()
				defer mu.Unlock()
				reports = append(reports, c)
				return "/tmp/agentwatch-crash.txt"
			})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			out := &syncbuf.Buffer{}
			p, ended := startProgram(g, 100, 10, tea.WithInput(nil), tea.WithOutput(out), tea.WithContext(ctx))
			p.Send(keyPress(tc.key))
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(ansi.Strip(out.String()), "press q to quit") {
				if time.Now().After(deadline) {
					t.Fatalf("no crash page; the screen shows %q", ansi.Strip(out.String()))
				}
				time.Sleep(10 * time.Millisecond)
			}
			for _, k := range []string{"u", "c", "x", "esc"} {
				p.Send(keyPress(k))
			}
			select {
			case err := <-ended:
				t.Fatalf("the program ended before q: %v", err)
			case <-time.After(100 * time.Millisecond):
			}
			p.Send(keyPress("q"))
			select {
			case err := <-ended:
				if err != nil {
					t.Fatalf("the program ended with %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("q did not quit the crash page")
			}
			screen := ansi.Strip(out.String())
			for _, want := range []string{"something went wrong: " + tc.says, "/tmp/agentwatch-crash.txt"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the page does not say %q:\n%s", want, screen)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reports) != 1 {
				t.Fatalf("%d reports, want 1", len(reports))
			}
			if r := reports[0]; r.During != tc.during || !strings.Contains(string(r.Stack), "panicky") && tc.during != "command" {
				t.Errorf("report during %q (want %q), stack:\n%s", r.During, tc.during, r.Stack)
			}
		})
	}
}

// The crash page fits the screen it is drawn on, also a tiny one, and says
// nothing an agent wrote without cleaning it first.
func TestGuardPageFits(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {20, 3}, {1, 1}} {
		g := Guard(&panicky{}, nil)
		g.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		g.crashed(Crash{Value: "\x1b]52;c;aGk=\x07evil\x1b[2J", During: "view"})
		lines := strings.Split(g.View().Content, "\n")
		checkPanel(t, lines, sz[0], sz[1])
		if len(lines) != sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
	}
}
