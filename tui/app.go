package tui

// This file holds the root Bubble Tea model: its state, the record pump and
// the selection rules (follow live, play). Drawing is in app_view.go, keys
// and mouse in app_keys.go.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/transcript"
)

// Layouts accepted by AppOptions.Layout.
const (
	LayoutAuto  = "auto"  // side pane from sideMinWidth columns, a bottom sheet below
	LayoutSide  = "side"  // transcript left, panel right
	LayoutSheet = "sheet" // panel over the lower part of the screen
)

// sideMinWidth is the narrowest terminal the auto layout shows side by side.
const sideMinWidth = 120

// playInterval is how long play shows each step: long enough to read the
// step's label and glance at its view.
const playInterval = 1200 * time.Millisecond

// pumpMaxBatches caps how many ready batches one pump message gathers, so a
// burst becomes one fold pass and one frame, while a stream that never
// pauses still reaches the screen.
const pumpMaxBatches = 256

// AppOptions shape the screen.
type AppOptions struct {
	// Layout is LayoutAuto (the default for ""), LayoutSide or LayoutSheet.
	Layout string
	// Title is shown in the transcript's title bar (a file name, "demo").
	Title string
	// Now is the clock for live marks (time.Now when nil).
	Now func() time.Time
	// ReadBack reads a step whose content the screen shed back from its
	// source's file: the step of that index in that thread of that source
	// (nil when the source is not a file, so shed content is gone).
	ReadBack func(source, thread string, index int, toolCallID string) (*model.Step, error)
}

// App is the root model of the viewer: it owns the fold, the layout, focus
// and the selected step, and routes messages to the plain components
// (transcript.Transcript, computer.PanelLines, computer.Timeline) it draws.
type App struct {
	// mode is what drives the screen (app_mode.go); the state of the
	// replay, session and threads modes is in replay, session and threads,
	// set exactly in those modes.
	mode appMode

	fold *fold.Fold
	recs <-chan []model.Record
	opts AppOptions
	// sourceStatus is the source's last SourceStatusMsg, shown in the title bar.
	sourceStatus string

	width, height int
	layout        string

	transcript *transcript.Transcript

	// selected indexes fold.Steps(); -1 before the first step.
	selected int
	// following keeps the newest step selected as steps arrive.
	following bool
	// done is set when recs closes: nothing more arrives, live is over.
	done bool

	playing bool
	// playGen tells the tick of the current play from ticks of an earlier
	// one still in flight after a pause.
	playGen int

	focus    appFocus
	dragging bool // the mouse button went down on the slider

	// help shows the key overlay; hidePanel gives the transcript the whole
	// screen.
	help      bool
	hidePanel bool

	// err is the last error the fold returned, shown in the footer.
	err error

	// frame is the screen as relayout laid it out after the last Update,
	// and geo where things are on it, for the mouse.
	frame []string
	geo   appGeometry

	panelCache panelCache
	// panelScroll is the first line of the step's view the panel shows,
	// for the step panelFor; zoom gives the panel the whole screen.
	panelScroll int
	panelFor    int
	zoom        bool

	replay  *replayMode
	session *sessionMode
	threads *threadsView

	// showPlan shows the agent's plan in the panel instead of the step's view.
	showPlan bool
	// showRuns shows the thread's run tree in the panel; runCursor is the
	// run row chosen in it.
	showRuns  bool
	runCursor int

	// heard is when the live source last sent records (app_quiet.go).
	heard time.Time
	// progress is how far each file source has been read (app_progress.go).
	progress map[string]readProgress
	// readBack holds steps read back from their file, nil while being read
	// (app_shed.go).
	readBack map[readBackKey]*readBackMsg
}

// recordsMsg carries batches of records from the pump.
type recordsMsg [][]model.Record

// recordsDoneMsg says the record channel closed.
type recordsDoneMsg struct{}

// playTickMsg advances play by one step.
type playTickMsg struct{ gen int }

// SourceStatusMsg tells the screen how its source is doing, in a few words
// shown in the transcript's title bar: "● LIVE", "waiting for data",
// "stream ended", "file truncated, restarted", "connection lost: …".
type SourceStatusMsg string

// NewApp shows records arriving on recs (a batch per receive; the channel
// closes at the end of the input) folded with f. Until recs closes the input
// is live: the panel follows the newest step and shows ● LIVE.
func NewApp(f *fold.Fold, recs <-chan []model.Record, opts AppOptions) *App {
	switch opts.Layout {
	case LayoutSide, LayoutSheet:
	default:
		opts.Layout = LayoutAuto
	}
	a := &App{
		fold:       f,
		recs:       recs,
		opts:       opts,
		layout:     opts.Layout,
		transcript: transcript.New(),
		selected:   -1,
		following:  true,
	}
	a.refresh()
	return a
}

// Init starts the pump. (The program that runs the App asks the terminal
// for its background; the answer, a tea.BackgroundColorMsg, picks the
// markdown theme, and terminals that do not answer keep the dark one.)
func (a *App) Init() tea.Cmd { return tea.Batch(a.pump(), a.replayInit()) }

// pump waits for the next batch and gathers whatever else is ready without
// waiting, so a burst costs one message and one frame.
func (a *App) pump() tea.Cmd {
	wake := a.quietWake()
	if a.mode == modeThreads {
		return pumpFrom(a.threads.batches, wake, func(b []model.Batch) tea.Msg { return batchesMsg(b) })
	}
	return pumpFrom(a.recs, wake, func(b [][]model.Record) tea.Msg { return recordsMsg(b) })
}

// pumpFrom is the pump over one channel: it waits for a value, gathers up
// to pumpMaxBatches more that are ready, and makes them one message; a
// closed channel gives recordsDoneMsg (a nil one at once). When wake is
// not 0 and nothing comes for that long, it gives quietTickMsg instead, so
// the title can say how long the source has been quiet without a timer of
// its own.
func pumpFrom[T any](in <-chan T, wake time.Duration, msg func([]T) tea.Msg) tea.Cmd {
	if in == nil {
		return func() tea.Msg { return recordsDoneMsg{} }
	}
	return func() tea.Msg {
		var timeout <-chan time.Time
		if wake > 0 {
			t := time.NewTimer(wake)
			defer t.Stop()
			timeout = t.C
		}
		var v T
		var ok bool
		select {
		case v, ok = <-in:
		case <-timeout:
			return quietTickMsg{}
		}
		if !ok {
			return recordsDoneMsg{}
		}
		got := []T{v}
		for len(got) < pumpMaxBatches {
			select {
			case v, ok := <-in:
				if !ok {
					// The close is seen again by the next pump.
					return msg(got)
				}
				got = append(got, v)
			default:
				return msg(got)
			}
		}
		return msg(got)
	}
}

// Update routes one message, reads the selected step back from its file
// when its content was shed, and lays the screen out for View.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := a.update(msg)
	if rb := a.readBackCmd(); rb != nil {
		cmd = tea.Batch(cmd, rb)
	}
	a.relayout()
	return m, cmd
}

// update routes one message.
func (a *App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case SourceStatusMsg:
		a.sourceStatus = string(msg)
		return a, nil
	case tea.BackgroundColorMsg:
		a.transcript.SetLight(!msg.IsDark())
		return a, nil
	case tea.WindowSizeMsg:
		a.width, a.height = max(msg.Width, 0), max(msg.Height, 0)
		return a, nil
	case quietTickMsg:
		return a, a.pump()
	case readBackMsg:
		a.onReadBack(msg)
		return a, nil
	case recordsMsg:
		a.heard = a.now()
		now, rest := cutRecords(msg, foldSlice)
		for _, b := range now {
			if _, err := a.fold.Apply(b...); err != nil {
				a.err = err
			}
		}
		a.refresh()
		return a, a.then(rest, rest != nil)
	case batchesMsg:
		a.heard = a.now()
		now, rest := cutBatches(msg, foldSlice)
		a.onBatches(now)
		return a, a.then(rest, rest != nil)
	case recordsDoneMsg:
		a.done = true
		if a.mode == modeThreads {
			a.refreshList()
		}
		return a, nil
	case playTickMsg:
		return a, a.playTick(msg)
	case replayTickMsg:
		return a, a.onReplayTick(msg)
	case TurnMsg:
		a.onTurn(msg)
		return a, nil
	case PermissionMsg:
		a.onPermission(msg)
		return a, nil
	case PermissionClosedMsg:
		a.onPermissionClosed(msg)
		return a, nil
	case flashDoneMsg:
		if msg.gen == a.replay.flashGen {
			a.replay.flashNote = ""
		}
		return a, nil
	case tea.KeyPressMsg:
		return a, a.key(msg)
	case tea.MouseClickMsg:
		return a, a.click(tea.Mouse(msg))
	case tea.MouseMotionMsg:
		if a.mode == modeReplay {
			return a, a.replayDrag(msg.X)
		}
		a.drag(tea.Mouse(msg))
		return a, nil
	case tea.MouseReleaseMsg:
		a.dragging, a.replay.seekDragging = false, false
		return a, nil
	case tea.MouseWheelMsg:
		a.wheel(tea.Mouse(msg))
		return a, nil
	}
	if a.mode == modeSession { // the prompt line's own messages (cursor blink)
		var cmd tea.Cmd
		a.session.input, cmd = a.session.input.Update(msg)
		return a, cmd
	}
	return a, nil
}

// runStep selects the first step of the run dir runs before (-1) or after
// (+1) the selected step's, in the order the runs started; runs without a
// step are passed over.
func (a *App) runStep(dir int) {
	steps := a.fold.Steps()
	if len(steps) == 0 {
		return
	}
	first := map[string]int{}
	for i, s := range steps {
		if _, ok := first[s.RunID]; !ok {
			first[s.RunID] = i
		}
	}
	runs := a.fold.Runs()
	cur := -1
	if s := a.step(); s != nil {
		for i, r := range runs {
			if r.RunID == s.RunID {
				cur = i
				break
			}
		}
	}
	if cur < 0 && dir < 0 {
		cur = len(runs)
	}
	for i := cur + dir; i >= 0 && i < len(runs); i += dir {
		if j, ok := first[runs[i].RunID]; ok {
			a.stopPlay()
			a.selectStep(j)
			return
		}
	}
}

// openAtTranscript opens the row under the transcript's cursor: a tool
// call or a computer card selects its step and shows the computer, a
// collapsed thought unfolds (and folds again). With the panel focused it
// only shows the computer.
func (a *App) openAtTranscript() {
	if a.focus != focusTranscript {
		a.hidePanel = false
		return
	}
	if step, ok := a.transcript.CursorStep(); ok && step < len(a.fold.Steps()) {
		a.hidePanel = false
		if step != a.selected {
			a.stopPlay()
			a.selectStep(step)
		}
		return
	}
	if seq, ok := a.transcript.CursorItem(); ok {
		if it := a.itemBySeq(seq); it != nil && it.Kind == model.ItemReasoning {
			a.transcript.ToggleExpanded(seq)
			return
		}
	}
	a.hidePanel = false
}

// moveCursor moves the transcript's cursor rows rows and selects the step
// under it.
func (a *App) moveCursor(rows int) {
	a.transcript.MoveCursor(rows)
	a.selectAtCursor()
}

// selectAtCursor selects the step under the transcript's cursor, when
// there is one, as choosing it by hand does; the transcript stays where
// the cursor put it.
func (a *App) selectAtCursor() {
	if a.mode == modeReplay {
		return // the player chooses what is selected: Enter seeks to a row
	}
	step, ok := a.transcript.CursorStep()
	if !ok || step == a.selected || step >= len(a.fold.Steps()) {
		return
	}
	a.stopPlay()
	a.selected = step
	a.following = false
	a.transcript.SetMark(step)
}

// refresh hands the fold's items to the transcript and, when following,
// selects the newest step.
func (a *App) refresh() {
	steps := a.fold.Steps()
	a.transcript.SetItems(a.fold.Items(), steps)
	a.transcript.SetRuns(a.fold.Runs())
	switch {
	case len(steps) == 0:
		a.selected = -1
	case a.following || a.selected < 0:
		a.selected = len(steps) - 1
	case a.selected >= len(steps):
		a.selected = len(steps) - 1
	}
}

// live reports whether the panel shows ● LIVE: the newest step is
// selected, records can still arrive, and a run is open (or the source
// has no runs to tell by).
func (a *App) live() bool { return a.following && !a.done && a.runOpen() }

// watching reports whether the newest step is selected and records can
// still arrive while every run has finished: a followed file whose agent
// is done says it watches for more, not that it is live.
func (a *App) watching() bool { return a.following && !a.done && !a.runOpen() }

// runOpen reports whether a run of the thread on screen is still open. A
// live agent session and a replay count as open; so does a source that has
// no runs at all, as nothing says it ended.
func (a *App) runOpen() bool {
	if a.mode == modeSession || a.mode == modeReplay {
		return true
	}
	runs := a.fold.Runs()
	if len(runs) == 0 {
		return true
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if !runs[i].Status.Done() {
			return true
		}
	}
	return false
}

// selectStep selects step i (clamped) and stops following, as choosing any
// step by hand does; the transcript scrolls to the step's row and marks it.
func (a *App) selectStep(i int) {
	n := len(a.fold.Steps())
	if n == 0 {
		return
	}
	a.selected = max(0, min(i, n-1))
	a.following = false
	a.transcript.ShowStep(a.selected)
}

// backToLive selects the newest step and follows new ones; the transcript
// follows its bottom again. A source that has ended has no live to go back
// to: its last step is selected and shown.
func (a *App) backToLive() {
	a.following = true
	a.stopPlay()
	n := len(a.fold.Steps())
	if n > 0 {
		a.selected = n - 1
	}
	if a.done && n > 0 {
		a.transcript.ShowStep(a.selected)
		return
	}
	a.transcript.FollowBottom()
}

// togglePlay starts or pauses play. Starting on the last step starts over
// from the first.
func (a *App) togglePlay() tea.Cmd {
	if a.playing {
		a.stopPlay()
		return nil
	}
	n := len(a.fold.Steps())
	if n == 0 {
		return nil
	}
	if a.selected >= n-1 {
		a.selectStep(0)
	} else {
		a.selectStep(a.selected)
	}
	a.playing = true
	a.playGen++
	return a.tick()
}

func (a *App) stopPlay() {
	a.playing = false
	a.playGen++
}

func (a *App) tick() tea.Cmd {
	gen := a.playGen
	return tea.Tick(playInterval, func(time.Time) tea.Msg { return playTickMsg{gen} })
}

// playTick moves play one step on, stopping at the last step.
func (a *App) playTick(msg playTickMsg) tea.Cmd {
	if !a.playing || msg.gen != a.playGen {
		return nil
	}
	n := len(a.fold.Steps())
	if a.selected < n-1 {
		a.selected++
		a.transcript.ShowStep(a.selected)
	}
	if a.selected >= n-1 {
		a.stopPlay()
		return nil
	}
	return a.tick()
}

// plan returns the agent's newest plan item, or nil.
func (a *App) plan() *model.Item {
	items := a.fold.Items()
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Kind == model.ItemPlan {
			return items[i]
		}
	}
	return nil
}

// step returns the selected step, or nil.
func (a *App) step() *model.Step {
	steps := a.fold.Steps()
	if a.selected < 0 || a.selected >= len(steps) {
		return nil
	}
	return steps[a.selected]
}
