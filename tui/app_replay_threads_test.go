package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/tui/transcript"
)

// threadsReplay is a replay App over the log of six threads, paused at the
// start, at w×h in the sheet layout (the title bar the whole width).
func threadsReplay(t *testing.T, w, h int) (*App, *replay.Player) {
	t.Helper()
	recs := replay.Slice(threadsRecords(t))
	tl, err := replay.BuildTimeline(recs, fold.Options{}, 512)
	if err != nil {
		t.Fatal(err)
	}
	clk := &stillClock{now: time.UnixMilli(1_700_000_000_000)}
	p := replay.NewPlayer(recs, tl, replay.NewSchedule(recs, replay.ScheduleOptions{IdleCap: replay.DefaultIdleCap}), replay.PlayerOptions{Clock: clk})
	a := NewReplayApp(p, AppOptions{Title: threadsSource, Layout: LayoutSheet})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a, p
}

// seekTo moves the player to position k as its keys do, and lays the
// screen out as Update does.
func seekTo(t *testing.T, a *App, k int) {
	t.Helper()
	a.replayed(func(p *replay.Player) error { return seekErr(p.Seek(k)) })
	a.relayout()
	if a.rp().player.Pos() != k {
		t.Fatalf("seek to %d: at %d", k, a.rp().player.Pos())
	}
}

// A replay of many threads shows the thread of the last record played,
// says so in the title bar, and keeps each thread's transcript.
func TestThreadsReplay(t *testing.T) {
	a, p := threadsReplay(t, 200, 50)
	runs := logRuns(t, threadsRecords(t))
	transcripts := map[string]*transcript.Transcript{}
	for i, r := range runs {
		seekTo(t, a, (r.from+r.to)/2)
		th := p.Thread()
		if th == nil || th.ID != r.thread || a.fold != th.Fold {
			t.Fatalf("in run %d: playing %v, want thread %s", i, th, r.thread)
		}
		s := drawnScreen(t, a)
		top := titleBar(a)
		want := fmt.Sprintf("playing thread %s “%s ", r.thread, strings.Fields(th.Title())[0])
		switch n := p.Threads().Len(); {
		case n == 1 && strings.Contains(top, "playing"):
			t.Errorf("in run %d, of the only thread so far, the title bar says %q", i, top)
		case n > 1 && (!strings.Contains(top, want) || !strings.Contains(top, fmt.Sprintf("” · %d threads", n))):
			t.Errorf("in run %d the title bar says %q, want %q… of %d threads", i, top, want, n)
		}
		if !strings.Contains(ansi.Strip(s), "space pause") {
			t.Errorf("in run %d the footer is not the replay's", i)
		}
		// The player sheds at its checkpoints: a gap row stands for each
		// run of items it shed (read back as a person scrolls to it).
		rows, next := 0, uint64(1)
		for _, it := range th.Fold.Items() {
			if it.Seq > next {
				rows++
			}
			rows, next = rows+1, it.Seq+1
		}
		if next <= th.Fold.ItemsMade() {
			rows++
		}
		if a.transcript.Len() != rows {
			t.Errorf("in run %d the transcript has %d rows, want %d: the thread's %d items and its gaps", i, a.transcript.Len(), rows, len(th.Fold.Items()))
		}
		if p.Threads().Len() > 1 {
			if tr, ok := transcripts[r.thread]; ok && tr != a.transcript {
				t.Errorf("in run %d thread %s has a new transcript", i, r.thread)
			}
			transcripts[r.thread] = a.transcript
		}
	}
	// One event on from the last record of run 3 is the first of run 4,
	// of another thread; one event back is run 3's thread again.
	if runs[3].thread == runs[4].thread {
		t.Fatal("runs 3 and 4 are of one thread")
	}
	seekTo(t, a, runs[4].from)
	before := a.transcript
	a.pressAll(".")
	if p.Thread().ID != runs[4].thread || a.fold != p.Fold() || a.transcript == before {
		t.Errorf(". into run 4: playing %s, want %s with its own transcript", p.Thread().ID, runs[4].thread)
	}
	a.pressAll(",")
	if p.Thread().ID != runs[3].thread || a.fold != p.Fold() || a.transcript != before {
		t.Errorf(", back into run 3: playing %s, want %s with its transcript", p.Thread().ID, runs[3].thread)
	}
	// A thread's transcript, scrolled, is the same one when the player
	// comes back to it after playing another.
	last := runs[len(runs)-1]
	seekTo(t, a, last.to-1)
	drawnScreen(t, a)
	readBackAll(t, a) // what the player shed above, as the screen asks for it
	a.pressAll("pgup", "pgup")
	tr, screen := a.transcript, drawnScreen(t, a)
	if tr.Following() {
		t.Fatal("PgUp did not scroll the transcript")
	}
	other := runs[len(runs)-2]
	if other.thread == last.thread {
		t.Fatal("the last two runs are of one thread")
	}
	seekTo(t, a, other.to-1)
	if a.transcript == tr || p.Thread().ID != other.thread {
		t.Fatalf("seeking back to thread %s kept the transcript of %s", other.thread, last.thread)
	}
	seekTo(t, a, last.to-1)
	if a.transcript != tr || tr.Following() {
		t.Fatalf("back in thread %s: another transcript, or its scroll lost", last.thread)
	}
	if got := drawnScreen(t, a); got != screen {
		t.Errorf("back in thread %s the screen differs:\n%s\nwas:\n%s", last.thread, ansi.Strip(got), ansi.Strip(screen))
	}
}

// The screen at a position of the replay is the same however the player
// got there: from the start, or back from another thread.
func TestThreadsReplaySeekBack(t *testing.T) {
	runs := logRuns(t, threadsRecords(t))
	for _, k := range []int{runs[0].to - 1, runs[2].to - 1, runs[len(runs)-1].to - 1} {
		fresh, _ := threadsReplay(t, 120, 40)
		seekTo(t, fresh, k)
		want := drawnScreen(t, fresh)
		a, _ := threadsReplay(t, 120, 40)
		for _, via := range []int{runs[len(runs)-2].to - 1, runs[1].to - 1, 0, runs[5].from + 40} {
			seekTo(t, a, via)
			drawnScreen(t, a)
			seekTo(t, a, k)
			if got := drawnScreen(t, a); got != want {
				t.Fatalf("at %d, come back from %d, the screen is:\n%s\nfrom the start it is:\n%s", k, via, ansi.Strip(got), ansi.Strip(want))
			}
		}
	}
}

// Before the log's second thread has been played, the first thread is
// shown with its own transcript too, not the one of the thread shown last.
func TestThreadsReplayFirstThreadAlone(t *testing.T) {
	runs := logRuns(t, threadsRecords(t))
	if runs[1].thread != runs[0].thread || runs[2].thread == runs[0].thread {
		t.Fatal("the log does not start with two runs of one thread, then another's")
	}
	for _, k := range []int{runs[0].from + 300, runs[0].to - 1, runs[1].to - 1} {
		fresh, _ := threadsReplay(t, 120, 40)
		seekTo(t, fresh, k)
		want := drawnScreen(t, fresh)
		a, _ := threadsReplay(t, 120, 40)
		last := runs[len(runs)-1]
		seekTo(t, a, last.to-1)
		drawnScreen(t, a)
		a.pressAll("k", "k", "k") // that thread's transcript scrolled up
		drawnScreen(t, a)
		seekTo(t, a, k)
		if got := drawnScreen(t, a); got != want {
			t.Errorf("at %d, back from thread %s, the screen is:\n%s\nfrom the start it is:\n%s", k, last.thread, ansi.Strip(got), ansi.Strip(want))
		}
	}
	// One event on from the first thread's last record and one back.
	a, p := threadsReplay(t, 120, 40)
	seekTo(t, a, runs[2].from)
	first := a.transcript
	a.pressAll(".", ",")
	if p.Thread().ID != runs[1].thread || a.transcript != first {
		t.Errorf(". , at the first thread's last record: back in %s, another transcript", p.Thread().ID)
	}
}
