package serve

import (
	"context"
	"flag"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/internal/testkit/monkey"
	"github.com/agentwatch/agentwatch/tui"
)

var (
	monkeySeed   = flag.Uint64("monkey.seed", 1, "the seed of the monkey test's inputs")
	monkeyInputs = flag.Int("monkey.n", 1500, "how many random inputs the monkey test sends")
)

// A viewer's random keys, clicks, releases, drags, wheels, pastes and
// window changes, on a log that grows meanwhile, never end its session nor
// crash its screen, and another viewer watching meanwhile is not
// disturbed. A failure names the seed (-monkey.seed reruns it).
func TestMonkeyViewer(t *testing.T) {
	g := newGrowingLog(t, t.TempDir(), 5)
	ts := startServer(t, []string{g.path}, ShowOptions{}, Config{})
	hands := ts.view(t, ts.allowed, 120, 40)
	watcher := ts.view(t, ts.allowed, 100, 30)
	hands.waitFor("step 5 of 5")
	watcher.waitFor("step 5 of 5")

	stop := make(chan struct{})
	var grew sync.WaitGroup
	grew.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				g.add(1)
			}
		}
	})
	gen := monkey.New(*monkeySeed, 120, 40)
	for i := range *monkeyInputs {
		msg := gen.Msg()
		if size, ok := msg.(tea.WindowSizeMsg); ok {
			hands.growTo(max(size.Width, 2), max(size.Height, 2))
			continue
		}
		hands.send(monkey.Encode(msg))
		if monkey.Alone(msg) {
			time.Sleep(20 * time.Millisecond)
		}
		if i%100 == 0 {
			select {
			case <-hands.ended:
				t.Fatalf("seed %d: input %d (%T %v) ended the session; the log says:\n%s", *monkeySeed, i, msg, msg, ts.log.String())
			default:
			}
		}
	}
	close(stop)
	grew.Wait()
	// The viewer's screen still answers a key. The inputs may still be on
	// their way, and an Esc read with the bytes after it is no Esc, so
	// hands that see nothing happen press Esc and ? again.
	hands.growTo(120, 40)
	if !hands.pressUntil("Keys · ", "\x1b", "?") {
		hands.waitFor("Keys · ") // fails, showing the screen
	}
	if strings.Contains(ts.log.String(), "hit a bug") {
		t.Fatalf("seed %d: a screen crashed; the log says:\n%s", *monkeySeed, ts.log.String())
	}
	select {
	case <-hands.ended:
		t.Fatalf("seed %d: the session ended; the log says:\n%s", *monkeySeed, ts.log.String())
	default:
	}
	watcher.waitFor(stepOf(g.steps, g.steps))
}

// panickyShow is a show whose screens panic on the key !.
type panickyShow struct{}

func (panickyShow) Title() string { return "panicky" }

func (panickyShow) Screen(context.Context) (Screen, error) {
	return Screen{Model: &panickyScreen{}}, nil
}

type panickyScreen struct{ keys int }

func (p *panickyScreen) Init() tea.Cmd { return nil }

func (p *panickyScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "!":
			var steps []int
			_ = steps[3]
		case "q":
			return p, tea.Quit
		}
		p.keys++
	}
	return p, nil
}

func (p *panickyScreen) View() tea.View {
	v := tea.NewView("a screen that has had " + strings.Repeat("|", p.keys) + " keys")
	v.AltScreen = true
	return v
}

// A bug in one viewer's screen is shown on that screen, kept through
// Config.Crashes and logged; the viewer leaves with q as usual, and the
// other viewers and the server go on.
func TestViewerCrashShownAlone(t *testing.T) {
	var mu sync.Mutex
	var crashes []string
	ts := startShow(t, panickyShow{}, Config{}, func(s *Server) {
		s.cfg.Crashes = func(c tui.Crash) string {
			mu.Lock()
			defer mu.Unlock()
			crashes = append(crashes, string(c.Stack))
			return "/cache/crashes/crash-1.txt"
		}
	})
	broken := ts.view(t, ts.allowed, 100, 20)
	other := ts.view(t, ts.allowed, 100, 20)
	broken.waitFor("a screen that has had")
	other.waitFor("a screen that has had")
	broken.send("!")
	broken.waitFor("something went wrong", "index out of range", "/cache/crashes/crash-1.txt", "press q to quit")
	other.send("xy")
	other.waitFor("has had || keys")
	broken.send("q")
	if code := broken.waitEnd(); code != 0 {
		t.Errorf("the crashed viewer left with status %d", code)
	}
	other.send("z")
	other.waitFor("has had ||| keys")
	third := ts.view(t, ts.allowed, 80, 20)
	third.waitFor("a screen that has had")
	mu.Lock()
	defer mu.Unlock()
	if len(crashes) != 1 || !strings.Contains(crashes[0], "panickyScreen") {
		t.Fatalf("crashes kept: %q", crashes)
	}
	if !strings.Contains(ts.log.String(), "hit a bug") {
		t.Errorf("the log does not say a screen hit a bug:\n%s", ts.log.String())
	}
}
