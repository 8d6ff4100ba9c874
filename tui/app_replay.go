package tui

// This file holds the App's replay mode: a replay.Player drives the fold and
// the keys and the timeline move the player instead of only the selection.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/transcript"
)

// replayFrame is the shortest gap between replay ticks: records due closer
// together than a frame are shown in one.
const replayFrame = 16 * time.Millisecond

// flashFor is how long a speed change is shown in the replay bar.
const flashFor = 1500 * time.Millisecond

// replayTickMsg asks the player to play what is due.
type replayTickMsg struct{ gen int }

// flashDoneMsg clears the replay bar's note.
type flashDoneMsg struct{ gen int }

// NewReplayApp shows a recorded log played by p. The player is not started:
// call p.Play first to start playing at once.
func NewReplayApp(p *replay.Player, opts AppOptions) *App {
	a := NewApp(p.Fold(), nil, opts)
	a.mode = modeReplay
	a.replay = &replayMode{player: p}
	a.done = true // nothing arrives but what the player plays
	// The rows again, as a replay's: its gap rows read back from the
	// timeline.
	a.shedViews = nil
	a.refresh()
	return a
}

// replayInit starts the tick loop when the player is playing.
func (a *App) replayInit() tea.Cmd {
	if a.mode != modeReplay || !a.replay.player.Playing() {
		return nil
	}
	return a.replayTick(0)
}

// replayTick schedules the next tick after wait (at least a frame).
func (a *App) replayTick(wait time.Duration) tea.Cmd {
	a.replay.gen++
	gen := a.replay.gen
	return tea.Tick(max(wait, replayFrame), func(time.Time) tea.Msg { return replayTickMsg{gen} })
}

// onReplayTick plays what is due and schedules the next tick.
func (a *App) onReplayTick(msg replayTickMsg) tea.Cmd {
	if a.mode != modeReplay || msg.gen != a.replay.gen {
		return nil
	}
	wait, _, err := a.replay.player.Advance()
	a.moved(err)
	if !a.replay.player.Playing() {
		return nil
	}
	return a.replayTick(wait)
}

// moved shows the player's fold after it moved, following its newest step.
// A log of several threads shows the thread being played, each thread with
// its own transcript (item numbers are per thread, so renderings must not
// be shared).
func (a *App) moved(err error) {
	if err != nil {
		a.err = err
	}
	if th := a.replay.player.Thread(); th != nil {
		key := th.Source + "\x00" + th.ID
		if key != a.replay.played.key {
			if a.replay.played.transcripts == nil {
				a.replay.played.transcripts = map[string]*transcript.Transcript{}
			}
			a.replay.played.transcripts[a.replay.played.key] = a.transcript
			t := a.replay.played.transcripts[key]
			if t == nil {
				t = transcript.New()
				t.SetLight(a.transcript.Light())
			}
			a.transcript, a.replay.played.key = t, key
			a.panelCache = panelCache{}
		}
	}
	a.fold = a.replay.player.Fold()
	a.following = true
	a.refresh()
}

// replayed runs one player action and returns the command that keeps the
// tick loop going (a new generation, so older ticks die).
func (a *App) replayed(act func() error) tea.Cmd {
	err := act()
	a.moved(err)
	if a.replay.player.Playing() {
		return a.replayTick(0)
	}
	a.replay.gen++ // stop ticks in flight
	return nil
}

// seekErr adapts the player's seek methods to replayed.
func seekErr(_ bool, err error) error { return err }

// flash shows note in the replay bar for a moment.
func (a *App) flash(note string) tea.Cmd {
	a.replay.flashNote = note
	a.replay.flashGen++
	gen := a.replay.flashGen
	cmd := tea.Tick(flashFor, func(time.Time) tea.Msg { return flashDoneMsg{gen} })
	if a.replay.player.Playing() {
		return tea.Batch(cmd, a.replayTick(0)) // the new speed changes the wait
	}
	return cmd
}

// replayClick handles a click on the timeline or the replay bar in replay
// mode; ok is false when the click is not one of its own.
func (a *App) replayClick(x, y int) (tea.Cmd, bool) {
	g := a.geo
	p := a.replay.player
	if g.replayBar.contains(x, y) {
		col := x - g.replayBar.x
		if !g.replayBarView.OnTrack(col) {
			return nil, true
		}
		a.replay.seekDragging = true
		d := g.replayBarView.TimeAt(col, p.Total())
		return a.replayed(func() error { return seekErr(p.SeekTime(d)) }), true
	}
	if !g.timeline.contains(x, y) {
		return nil, false
	}
	h := g.timelineView.HitAt(y-g.timeline.y, x-g.timeline.x)
	switch h.Kind {
	case computer.HitChip, computer.HitTick:
		a.dragging = h.Kind == computer.HitTick
		return a.replayed(func() error { return seekErr(p.SeekStep(h.Step)) }), true
	case computer.HitPrev:
		return a.replayed(func() error { return seekErr(p.NextStep(-1)) }), true
	case computer.HitNext:
		return a.replayed(func() error { return seekErr(p.NextStep(1)) }), true
	case computer.HitPlay:
		return a.replayed(p.Toggle), true
	case computer.HitLive:
		return a.replayed(func() error { return seekErr(p.Seek(p.Len())) }), true
	}
	return nil, true
}

// replayDrag seeks while the button is held on the replay bar or slider.
func (a *App) replayDrag(x int) tea.Cmd {
	p := a.replay.player
	switch {
	case a.replay.seekDragging:
		d := a.geo.replayBarView.TimeAt(x-a.geo.replayBar.x, p.Total())
		return a.replayed(func() error { return seekErr(p.SeekTime(d)) })
	case a.dragging:
		if i := a.geo.timelineView.SliderStep(x - a.geo.timeline.x); i >= 0 {
			return a.replayed(func() error { return seekErr(p.SeekStep(i)) })
		}
	}
	return nil
}

// replayState is what the replay bar shows now.
func (a *App) replayState() computer.ReplayState {
	p := a.replay.player
	sched := p.Schedule()
	marks := func(at []int) []time.Duration {
		out := make([]time.Duration, 0, len(at))
		for _, k := range at {
			if k >= 1 && k-1 < sched.Len() {
				out = append(out, sched.At(k-1))
			}
		}
		return out
	}
	return computer.ReplayState{
		Playing: p.Playing(), Speed: p.Speed(), Elapsed: min(p.Elapsed(), p.Total()), Total: p.Total(),
		Pos: p.Pos(), Len: p.Len(), Steps: marks(p.Timeline().StepStarts()), Runs: marks(p.Timeline().RunStarts()),
		Flash: a.replay.flashNote, Untimed: !sched.Timed(),
	}
}

// replayMode is the App's state in modeReplay.
type replayMode struct {
	player *replay.Player
	// played keeps the transcripts of the threads the player showed.
	played       playedThreads
	gen          int    // tells the current tick loop from stopped ones
	flashNote    string // shown in the replay bar for a moment
	flashGen     int
	seekDragging bool // the mouse button went down on the replay bar
}

// playedThreads are the transcripts of the threads a player has shown, by
// source and thread id; key is the one on screen.
type playedThreads struct {
	key         string
	transcripts map[string]*transcript.Transcript
}
