package tui

// This file holds the root Bubble Tea model: its state, the record pump and
// the selection rules (follow live, play). Drawing is in app_view.go, keys
// and mouse in app_keys.go.

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/search"
	"github.com/agentwatch/agentwatch/tui/transcript"
	"github.com/agentwatch/agentwatch/window"
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
	// Filter shows only the steps it names, as the f key does: "failed",
	// "execute,edit", "text:WORDS" (search.ParseFilter; one it cannot
	// read is ignored, so callers check it first).
	Filter string
	// Window is what the screen keeps of its threads and how it reads back
	// what it let go: the screen asks its window for rows and steps, and
	// gets its reads back as messages (package window). Its clock is Now
	// unless it has one.
	Window window.Options
	// Images is how screenshots are drawn (--images; "" is images.Auto:
	// pixels where the terminal answers that it can show them).
	Images images.Choice
	// Clipboard copies text to the clipboard of the machine the screen
	// runs on and says how ("with wl-copy"); nil when it has no way, and
	// the terminal is asked instead (OSC 52), as for a viewer over SSH.
	// It may take a moment: the screen calls it off its own goroutine.
	Clipboard func(text string) (how string, err error)
	// Bell rings the terminal's bell once each time a session of an
	// agent's folder starts waiting for the person (AgentStatesMsg).
	Bell bool
	// Project names the project a source's threads belong to (a Claude
	// Code session's folder), which the thread list shows in place of the
	// file's name; "" or a nil Project shows the file. It is called on the
	// screen's goroutine, so it only looks up what is known already.
	Project func(source string) string
	// Open asks for the file source, listed from its glances (a big
	// folder's session, model.Batch's Glance), to be folded: its records
	// then come as any source's do. It is called on the screen's
	// goroutine and must not wait.
	Open func(source string)
	// ArchiveBudget is how much the screen keeps, compressed, of the text
	// of what its window let go, for / to find (0: 64 MiB). Below 0 it
	// keeps none, and / finds what the screen keeps and says how many
	// older items it does not search: a server's viewers, each of whom
	// would keep a copy of the same log's text.
	ArchiveBudget int
}

// App is the root model of the viewer: it owns the fold, the layout, focus
// and the selected step, and routes messages to the plain components
// (transcript.Transcript, computer.PanelLines, computer.Timeline) it draws.
type App struct {
	// mode is what drives the screen, and the state of that mode alone
	// (app_mode.go): a replay's player exists only in a replay.
	mode modeState

	fold *fold.Fold
	recs <-chan []model.Record
	opts AppOptions
	// sourceStatus is the source's last SourceStatusMsg, shown in the title bar.
	sourceStatus string

	width, height int
	layout        string

	transcript *transcript.Transcript

	// selected indexes allSteps(), whose positions are the steps'
	// indexes; -1 before the first step.
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
	help       bool
	helpScroll int
	hidePanel  bool

	// err is the last error the fold returned, shown in the footer.
	err error

	// reveal asks the next layout to scroll the transcript the least that
	// shows the selected step's row: its size changed under it (v, c, a
	// resize).
	reveal bool

	// frame is the screen as relayout laid it out after the last Update,
	// and geo where things are on it, for the mouse; canvas is what
	// relayout draws the frame on, kept to be reused.
	frame  []string
	geo    appGeometry
	canvas canvas

	panelCache panelCache
	// panelScroll is the first line of the step's view the panel shows,
	// for the step panelFor; zoom gives the panel the whole screen.
	panelScroll int
	panelFor    int
	zoom        bool

	// showPlan shows the agent's plan in the panel instead of the step's view.
	showPlan bool
	// showRuns shows the thread's run tree in the panel; runCursor is the
	// run row chosen in it.
	showRuns  bool
	runCursor int

	// filter hides steps (app_filter.go); search finds text and holds the
	// input line (app_search.go); note is a word about the last key
	// ("no failed step", "search wrapped"), shown until the next one.
	filter stepFilter
	search searchState
	note   string

	// heard is the time of the source's last event, as far as it is known
	// (app_state.go).
	heard time.Time
	// win is what the screen keeps of its threads and reads back
	// (app_window.go).
	win *window.Window
	// restarts are the files that started over, while the title says so
	// (app_restart.go).
	restarts map[string]*restartNote
	// interrupted are the steps of fold of, as an ended source leaves
	// them (allSteps).
	interrupted struct {
		steps []*model.Step
		of    *fold.Fold
	}
	// images is how screenshots reach this terminal (app_images.go).
	images *appImages
}

// recordsMsg carries batches of records from the pump.
type recordsMsg [][]model.Record

// recordsDoneMsg says the record channel closed.
type recordsDoneMsg struct{}

// playTickMsg advances play by one step.
type playTickMsg struct{ gen int }

// SourceStatusMsg tells the screen how its source is doing, in a few words
// shown in the transcript's title bar: "waiting for the file", "12 logs",
// "connection lost: …". Whether it is live is not among them: the screen
// decides that from the source and the fold (app_state.go).
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
	if opts.Window.Now == nil {
		opts.Window.Now = opts.Now
	}
	a := &App{
		win:        window.New(opts.Window),
		fold:       f,
		recs:       recs,
		opts:       opts,
		mode:       watchMode{},
		layout:     opts.Layout,
		transcript: transcript.New(),
		selected:   -1,
		following:  true,
	}
	a.search.cur = -1
	if f, err := search.ParseFilter(opts.Filter); err == nil && f.Active() {
		a.filter.spec = f
		a.transcript.SetStepFilter(a.shown)
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
	if tv, ok := a.mode.(*threadsView); ok {
		return pumpFrom(tv.batches, wake, func(b []model.Batch) tea.Msg { return batchesMsg(b) })
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
// when its content was shed (and items shed that the person went to), and
// lays the screen out for View, sending
// the terminal the pictures the frame shows that it does not hold yet.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	ask := a.imagesMsg(msg)
	m, cmd := a.update(msg)
	if rb := a.readStepCmd(); rb != nil {
		cmd = tea.Batch(cmd, rb)
	}
	a.syncImages()
	a.relayout()
	if ri := a.readItemsCmd(); ri != nil {
		// The gap row says it is reading now.
		a.relayout()
		cmd = tea.Batch(cmd, ri)
	}
	if sc := a.searchCmd(); sc != nil {
		a.relayout()
		cmd = tea.Batch(cmd, sc)
	}
	return m, tea.Batch(cmd, ask, a.imagesOut())
}

// update routes one message.
func (a *App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case SourceStatusMsg:
		a.sourceStatus = string(msg)
		return a, nil
	case TakenUpMsg:
		a.takeUp(msg.Threads)
		return a, nil
	case tea.BackgroundColorMsg:
		a.transcript.SetLight(!msg.IsDark())
		return a, nil
	case tea.WindowSizeMsg:
		a.width, a.height = max(msg.Width, 0), max(msg.Height, 0)
		a.reveal = true
		return a, nil
	case quietTickMsg:
		a.checkpoint() // a log that grew, then went quiet
		a.dropRestarts()
		return a, a.pump()
	case window.StepReadMsg:
		a.win.TookStep(msg)
		a.panelCache = panelCache{}
		return a, nil
	case window.ItemsReadMsg:
		a.onReadItems(msg)
		a.searchTookItems()
		return a, nil
	case copiedMsg:
		a.onCopied(msg)
		return a, nil
	case recordsMsg:
		a.heard = a.now()
		now, rest := cutRecords(msg, foldSlice)
		for _, b := range now {
			if _, err := a.fold.Apply(b...); err != nil {
				a.err = err
			}
		}
		a.archiveBeforeTrim(a.fold, a.lookingBack())
		a.win.Trim(a.at(), a.lookingBack()) // the one fold of a live session
		a.refresh()
		return a, a.then(rest, rest != nil)
	case batchesMsg:
		now, rest := cutBatches(msg, foldSlice)
		a.onBatches(now)
		return a, a.then(rest, rest != nil)
	case AgentStatesMsg:
		return a, a.onAgentStates(msg)
	case recordsDoneMsg:
		a.done = true
		a.agentExited()
		if tv, ok := a.mode.(*threadsView); ok {
			a.refreshList(tv)
		}
		a.refresh() // what the source left open shows interrupted
		return a, nil
	case searchTickMsg:
		a.onSearchTick(msg)
		return a, nil
	case searchFirstMsg:
		a.onSearchFirst(msg)
		return a, nil
	case searchCountMsg:
		a.onSearchCount(msg)
		return a, nil
	case playTickMsg:
		return a, a.playTick(msg)
	case replayTickMsg:
		return a, a.onReplayTick(msg)
	case TurnMsg:
		a.onTurn(msg)
		return a, nil
	case AgentFailedMsg:
		a.onAgentFailed(msg)
		return a, nil
	case PermissionMsg:
		a.onPermission(msg)
		return a, nil
	case PermissionClosedMsg:
		a.onPermissionClosed(msg)
		return a, nil
	case flashDoneMsg:
		if r, ok := a.mode.(*replayMode); ok && msg.gen == r.flashGen {
			r.flashNote = ""
		}
		return a, nil
	case tea.KeyPressMsg:
		return a, a.key(msg)
	case tea.MouseClickMsg:
		return a, a.click(tea.Mouse(msg))
	case tea.MouseMotionMsg:
		if r, ok := a.mode.(*replayMode); ok {
			return a, a.replayDrag(r, msg.X)
		}
		a.drag(tea.Mouse(msg))
		return a, nil
	case tea.MouseReleaseMsg:
		a.dragging = false
		if r, ok := a.mode.(*replayMode); ok {
			r.seekDragging = false
		}
		return a, nil
	case tea.MouseWheelMsg:
		a.wheel(tea.Mouse(msg))
		return a, nil
	}
	if g, ok := a.mode.(*sessionMode); ok { // the prompt line's own messages (cursor blink)
		var cmd tea.Cmd
		g.input, cmd = g.input.Update(msg)
		return a, cmd
	}
	return a, nil
}
