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
	a.mode = &replayMode{player: p}
	a.done = true // nothing arrives but what the player plays
	// The rows again, as a replay's: its gap rows read back from the
	// timeline.
	a.win.ForgetViews()
	a.refresh()
	return a
}

// replayInit starts the tick loop when the player is playing.
func (a *App) replayInit() tea.Cmd {
	r, ok := a.mode.(*replayMode)
	if !ok || !r.player.Playing() {
		return nil
	}
	return r.tick(0)
}

// tick schedules the next tick after wait (at least a frame).
func (r *replayMode) tick(wait time.Duration) tea.Cmd {
	r.gen++
	gen := r.gen
	return tea.Tick(max(wait, replayFrame), func(time.Time) tea.Msg { return replayTickMsg{gen} })
}

// onReplayTick plays what is due and schedules the next tick.
func (a *App) onReplayTick(msg replayTickMsg) tea.Cmd {
	r, ok := a.mode.(*replayMode)
	if !ok || msg.gen != r.gen {
		return nil
	}
	wait, _, err := r.player.Advance()
	a.moved(r, err)
	if !r.player.Playing() {
		return nil
	}
	return r.tick(wait)
}

// moved shows the player's fold after it moved, following its newest step.
// A log of several threads shows the thread being played, each thread with
// its own transcript (item numbers are per thread, so renderings must not
// be shared).
func (a *App) moved(r *replayMode, err error) {
	if err != nil {
		a.err = err
	}
	if th := r.player.Thread(); th != nil {
		key := th.Source + "\x00" + th.ID
		if key != r.played.key {
			if r.played.transcripts == nil {
				r.played.transcripts = map[string]*transcript.Transcript{}
			}
			r.played.transcripts[r.played.key] = a.transcript
			t := r.played.transcripts[key]
			if t == nil {
				t = transcript.New()
				t.SetLight(a.transcript.Light())
			}
			a.transcript, r.played.key = t, key
			a.panelCache = panelCache{}
		}
	}
	a.fold = r.player.Fold()
	a.following = true
	a.refresh()
}

// replayed runs one player action and returns the command that keeps the
// tick loop going (a new generation, so older ticks die). Outside a
// replay it does nothing.
func (a *App) replayed(act func(p *replay.Player) error) tea.Cmd {
	r, ok := a.mode.(*replayMode)
	if !ok {
		return nil
	}
	err := act(r.player)
	a.moved(r, err)
	if r.player.Playing() {
		return r.tick(0)
	}
	r.gen++ // stop ticks in flight
	return nil
}

// seekErr adapts the player's seek methods to replayed.
func seekErr(_ bool, err error) error { return err }

// flash shows note in the replay bar for a moment.
func (r *replayMode) flash(note string) tea.Cmd {
	r.flashNote = note
	r.flashGen++
	gen := r.flashGen
	cmd := tea.Tick(flashFor, func(time.Time) tea.Msg { return flashDoneMsg{gen} })
	if r.player.Playing() {
		return tea.Batch(cmd, r.tick(0)) // the new speed changes the wait
	}
	return cmd
}

// replayClick handles a click on the timeline or the replay bar in replay
// mode; ok is false when the click is not one of its own.
func (a *App) replayClick(r *replayMode, x, y int) (tea.Cmd, bool) {
	g := a.geo
	p := r.player
	if g.replayBar.contains(x, y) {
		col := x - g.replayBar.x
		if !g.replayBarView.OnTrack(col) {
			return nil, true
		}
		r.seekDragging = true
		d := g.replayBarView.TimeAt(col, p.Total())
		return a.replayed(func(p *replay.Player) error { return seekErr(p.SeekTime(d)) }), true
	}
	if !g.timeline.contains(x, y) {
		return nil, false
	}
	h := g.timelineView.HitAt(g.timelineLine(y), x-g.timeline.x)
	switch h.Kind {
	case computer.HitChip, computer.HitTick:
		a.dragging = h.Kind == computer.HitTick
		return a.replayed(func(p *replay.Player) error { return seekErr(p.SeekStep(h.Step)) }), true
	case computer.HitPrev:
		return a.replayed(func(p *replay.Player) error { return seekErr(p.NextStep(-1)) }), true
	case computer.HitNext:
		return a.replayed(func(p *replay.Player) error { return seekErr(p.NextStep(1)) }), true
	case computer.HitPlay:
		return a.replayed((*replay.Player).Toggle), true
	case computer.HitLive:
		return a.replayed(func(p *replay.Player) error { return seekErr(p.Seek(p.Len())) }), true
	}
	return nil, true
}

// replayDrag seeks while the button is held on the replay bar or slider.
func (a *App) replayDrag(r *replayMode, x int) tea.Cmd {
	switch {
	case r.seekDragging:
		d := a.geo.replayBarView.TimeAt(x-a.geo.replayBar.x, r.player.Total())
		return a.replayed(func(p *replay.Player) error { return seekErr(p.SeekTime(d)) })
	case a.dragging:
		if i := a.geo.timelineView.SliderStep(x - a.geo.timeline.x); i >= 0 {
			return a.replayed(func(p *replay.Player) error { return seekErr(p.SeekStep(i)) })
		}
	}
	return nil
}

// replayState is what the replay bar shows now.
func (r *replayMode) state() computer.ReplayState {
	p := r.player
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
		Flash: r.flashNote, Untimed: !sched.Timed(),
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
