package serve

// This file holds the soak's observers: a reader of the hub's log that
// counts what it takes, viewers whose emulators forget what scrolls off,
// and a viewer that never reads.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/agentwatch/agentwatch/model"
)

// hubCount is what a reader of a hub's log has taken: records, how many
// came with a sequence number other than the next, and how many were
// unreadable.
type hubCount struct {
	records, gaps, unreadable int
}

// hubCounter follows a hub's log as a viewer does, without a screen,
// counting what it takes.
type hubCounter struct {
	counts chan hubCount
}

// countHub follows hub from the start of its log until ctx ends.
func countHub(ctx context.Context, hub *Hub) *hubCounter {
	c := &hubCounter{counts: make(chan hubCount, 1)}
	feed := hub.Follow(ctx)
	feed.Begin() // from the log's start: there is no checkpoint to take up yet
	go func() {
		var n hubCount
		var next uint64 = 1
		for b := range feed.Batches {
			for _, r := range b.Records {
				if r.Seq != next {
					n.gaps++
				}
				next = r.Seq + 1
				if _, bad := r.Event.(*model.Unreadable); bad {
					n.unreadable++
				}
				n.records++
			}
			latestCount(c.counts, n)
		}
	}()
	return c
}

// latestCount puts n on a channel of capacity 1 that only this goroutine
// writes, replacing what its reader has not taken yet.
func latestCount(ch chan hubCount, n hubCount) {
	select {
	case <-ch:
	default:
	}
	ch <- n
}

// waitFor waits until the counter has taken want records or deadline
// passes, and returns the count then.
func (c *hubCounter) waitFor(want int, deadline time.Time) hubCount {
	var n hubCount
	for n.records < want {
		select {
		case n = <-c.counts:
		case <-time.After(time.Until(deadline)):
			return n
		}
	}
	return n
}

// showsBy waits until the screen shows text or deadline passes, and
// reports whether it did.
func (v *testViewer) showsBy(text string, deadline time.Time) bool {
	for {
		if strings.Contains(v.screen(), text) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// forgetScrolledLines makes the viewer's emulator keep a single line of
// what scrolls off its screen. The emulator keeps ten thousand, on the
// alternate screen too, where a terminal keeps none: in the soak that is
// memory the clients take, growing all along, in the process whose heap
// is measured. It keeps to the main screen, whose scrollback it can be
// told to keep small, and ignores the screen's asking for the other; the
// screen is drawn on it anew by the next window change.
func (v *testViewer) forgetScrolledLines() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.term.WriteString(ansi.ResetModeAltScreenSaveCursor)
	v.term.SetScrollbackSize(1)
	altScreen := func(params ansi.Params) bool {
		alt := len(params) > 0
		params.ForEach(0, func(_, mode int, _ bool) {
			alt = alt && (mode == 47 || mode == 1047 || mode == 1049)
		})
		return alt // handled: nothing else is done with it
	}
	v.term.RegisterCsiHandler(ansi.Command('?', 0, 'h'), altScreen)
	v.term.RegisterCsiHandler(ansi.Command('?', 0, 'l'), altScreen)
}

// stalledViewer is a session with a terminal whose output nobody reads.
type stalledViewer struct {
	// ended is closed when the session ends.
	ended chan struct{}
}

// stall logs in, opens a w×h terminal and its shell, and never reads
// what the server draws: the channel's window fills, and the server's
// writes to it wait from then on.
func (ts *testServer) stall(t *testing.T, w, h int) *stalledViewer {
	t.Helper()
	client, err := ts.dial("stalled", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	// A pipe taken and never read: without it the client would copy the
	// output away.
	if _, err := sess.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	s := &stalledViewer{ended: make(chan struct{})}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sess.Wait()
		close(s.ended)
	}()
	return s
}
