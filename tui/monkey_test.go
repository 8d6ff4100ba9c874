package tui

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/monkey"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
)

var (
	monkeySeed   = flag.Uint64("monkey.seed", 1, "the seed of the monkey tests' inputs")
	monkeyInputs = flag.Int("monkey.n", 2000, "how many random inputs each monkey test sends (a third of them under the race detector)")
)

// monkeyMode is a screen the monkey drives: how to make it, what to do to
// it first (open the search, the help…), and what a live source sends it
// meanwhile.
type monkeyMode struct {
	name  string
	make  func(t *testing.T) (*App, func(p *tea.Program, stop <-chan struct{}))
	first []string
}

// No input in any mode ends the program or panics: thousands of random
// keys, clicks, releases, drags, wheels, pastes and resizes in every mode
// the screen has, in a real tea.Program. A failure names the mode, the
// seed (-monkey.seed reruns it) and the input that broke it.
func TestMonkey(t *testing.T) {
	review := func(t *testing.T) (*App, func(*tea.Program, <-chan struct{})) {
		return newDemoApp(t, 120, 40, true, AppOptions{Title: "demo"}).App, nil
	}
	modes := []monkeyMode{
		{name: "review", make: review},
		{name: "search", make: review, first: []string{"/", "e", "d"}},
		{name: "filter", make: review, first: []string{"f", "e", "x"}},
		{name: "help", make: review, first: []string{"?"}},
		{name: "run tree", make: review, first: []string{"t", "tab"}},
		{name: "tail", make: monkeyTail},
		{name: "thread list", make: monkeyThreads},
		{name: "thread", make: monkeyThreads, first: []string{"enter"}},
		{name: "replay", make: monkeyReplay},
		{name: "session", make: monkeySession},
		{name: "permission", make: monkeySession, first: []string{"!permission"}},
	}
	for i, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			seed := *monkeySeed + uint64(i)*7919
			a, feed := m.make(t)
			n := *monkeyInputs
			if raceOn {
				n /= 3
			}
			runMonkey(t, a, seed, n, m.first, feed)
		})
	}
}

// runMonkey drives a in a real program with n random inputs from seed,
// after the keys of first; feed, when set, is what the source sends
// meanwhile, until stop closes.
func runMonkey(t *testing.T, a *App, seed uint64, n int, first []string, feed func(*tea.Program, <-chan struct{})) {
	t.Helper()
	c := &catcher{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, ended := startProgram(Guard(a, c.report), 120, 40, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithContext(ctx))
	stop := make(chan struct{})
	var fed sync.WaitGroup
	if feed != nil {
		fed.Go(func() { feed(p, stop) })
	}
	defer func() {
		close(stop)
		fed.Wait()
	}()
	send := func(i int, msg tea.Msg) {
		p.Send(msg)
		if c.failed() || len(ended) > 0 {
			t.Fatalf("seed %d: input %d (%T %v) %s", seed, i, msg, msg, c.what(ended))
		}
	}
	for i, k := range first {
		if k == "!permission" {
			send(-1, monkeyPermission(i))
			continue
		}
		send(-1, keyPress(k))
	}
	g := monkey.New(seed, 120, 40)
	for i := range n {
		send(i, g.Msg())
	}
	p.Quit()
	select {
	case err := <-ended:
		if err != nil || c.failed() {
			t.Fatalf("seed %d: at the end: %v %s", seed, err, c.what(nil))
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("seed %d: the program did not quit", seed)
	}
}

// catcher keeps the first crash the guard caught, with its stack.
type catcher struct {
	mu  sync.Mutex
	pnc string
}

// report is the guard's report: it keeps the crash for the test.
func (c *catcher) report(cr Crash) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pnc == "" {
		c.pnc = fmt.Sprintf("panic during %s: %v\n%s", cr.During, cr.Value, cr.Stack)
	}
	return ""
}

func (c *catcher) failed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pnc != ""
}

// what says what went wrong: the panic, or the program's end.
func (c *catcher) what(ended <-chan error) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pnc != "" {
		return c.pnc
	}
	select {
	case err := <-ended:
		return fmt.Sprintf("ended the program (%v)", err)
	default:
	}
	return ""
}

// monkeyTail is a live source sending the demo a few records at a time.
func monkeyTail(t *testing.T) (*App, func(*tea.Program, <-chan struct{})) {
	recs := demoRecords(t)
	ch := make(chan []model.Record)
	a := NewApp(fold.New(fold.Options{}), ch, AppOptions{Title: "tail"})
	return a, func(_ *tea.Program, stop <-chan struct{}) {
		for i := 0; ; i = (i + 3) % len(recs) {
			select {
			case ch <- recs[i:min(i+3, len(recs))]:
			case <-stop:
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// monkeyThreads is a live server log of six threads.
func monkeyThreads(t *testing.T) (*App, func(*tea.Program, <-chan struct{})) {
	recs := threadsRecords(t)
	ch := make(chan model.Batch)
	a := NewThreadsApp(fold.NewThreads(fold.Options{}), ch, AppOptions{Title: "threads"})
	return a, func(_ *tea.Program, stop <-chan struct{}) {
		for i := 0; i < len(recs); i += 20 {
			select {
			case ch <- model.Batch{Source: threadsSource, Records: recs[i:min(i+20, len(recs))]}:
			case <-stop:
				return
			}
			time.Sleep(time.Millisecond)
		}
		<-stop
	}
}

// monkeyReplay plays the demo at 16×.
func monkeyReplay(t *testing.T) (*App, func(*tea.Program, <-chan struct{})) {
	recs := replay.Slice(demoRecords(t))
	tl, err := replay.BuildTimeline(recs, fold.Options{}, 64)
	if err != nil {
		t.Fatal(err)
	}
	p := replay.NewPlayer(recs, tl, replay.NewSchedule(recs, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap}), replay.PlayerOptions{})
	p.SetSpeed(16)
	if err := p.Play(); err != nil {
		t.Fatal(err)
	}
	return NewReplayApp(p, AppOptions{Title: "demo"}), nil
}

// monkeySession is a live agent whose session arrives a record at a time,
// asking for permission now and then.
func monkeySession(t *testing.T) (*App, func(*tea.Program, <-chan struct{})) {
	recs := acpCodingSession(t)
	ch := make(chan []model.Record)
	a := NewAgentApp(fold.New(fold.Options{}), ch, &fakeAgent{}, AppOptions{Title: "agent"})
	return a, func(p *tea.Program, stop <-chan struct{}) {
		for i := 0; ; i++ {
			if i < len(recs) {
				select {
				case ch <- recs[i : i+1]:
				case <-stop:
					return
				}
			}
			if i%50 == 0 {
				p.Send(monkeyPermission(i))
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
}

// monkeyPermission is a permission request whose answer nobody waits for.
func monkeyPermission(i int) PermissionMsg {
	return PermissionMsg{
		Request: model.PermissionRequest{ToolCallID: fmt.Sprint("call-", i), Title: "Run `rm -rf build`",
			Options: []model.PermissionOption{{ID: "allow", Name: "Allow", Kind: "allow_once"}, {ID: "reject", Name: "Reject", Kind: "reject_once"}}},
		Answer: make(chan string, 1),
	}
}
