package serve

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// Show is what a server shows: every viewer gets a screen of its own onto it.
type Show interface {
	// Title names what is shown, for the log.
	Title() string
	// Screen is a new viewer's screen, which may hold on to what it reads
	// until ctx ends.
	Screen(ctx context.Context) (Screen, error)
}

// Screen is one viewer's screen onto a show.
type Screen struct {
	// Model is the screen.
	Model tea.Model
	// Status carries the words for its title bar as the sources change
	// them (nil when they never do).
	Status <-chan string
	// Start, when set, is called once the screen's program exists, with
	// the program's Send: what the screen is to take before its input.
	Start func(send func(tea.Msg))
	// Behind, when set, is closed when the viewer fell too far behind its
	// sources to go on: its session ends, and it may connect again.
	Behind <-chan struct{}
}

// ShowOptions say how the sources of a Show are opened.
type ShowOptions struct {
	// Play replays a single recorded log for each viewer instead of
	// following it.
	Play bool
	// Replay is how recordings are played (app.DefaultReplay when nil).
	Replay *app.ReplayOptions
	// Connect is what a URL source is sent.
	Connect sources.ConnectOptions
}

// OpenShow opens what args name, as agentwatch would open them, to be
// served until ctx ends, by a (whose options say how, and whose caches
// every viewer shares). With no args it is the embedded demo, and with
// so.Play one recorded log: each viewer gets a player of its own. Else
// each source is read once, by one goroutine, into a Hub whose log every
// viewer folds on its own.
func OpenShow(ctx context.Context, a *app.App, args []string, so ShowOptions) (Show, error) {
	ro := so.Replay
	if ro == nil {
		ro = app.DefaultReplay()
	}
	if len(args) == 0 || so.Play {
		if len(args) > 1 {
			return nil, app.BadInput(fmt.Errorf("--play plays one log; %d were named", len(args)))
		}
		src, err := a.Identify(firstArg(args))
		if err != nil {
			return nil, err
		}
		rec, err := a.OpenRecording(ro, src)
		if err != nil {
			return nil, err
		}
		return &recordingShow{rec: rec}, nil
	}
	var streams []*app.Stream
	for _, arg := range args {
		src, err := a.Identify(arg)
		if err != nil {
			return nil, err
		}
		st, err := a.OpenStream(ctx, src, so.Connect)
		if err != nil {
			return nil, err
		}
		streams = append(streams, st)
	}
	// Asked once the sources are open (an OTLP file may name tool kinds):
	// the hub folds with the options the viewers' screens fold with.
	fo, err := a.Options.FoldOptions()
	if err != nil {
		return nil, app.BadInput(err)
	}
	hub := NewHub(len(streams), fo)
	for _, st := range streams {
		go hub.Run(st.Name, st.Batches, st.Status)
	}
	title := streams[0].Name
	if len(streams) > 1 {
		title = fmt.Sprintf("%d sources", len(streams))
	}
	return &liveShow{hub: hub, a: a, fo: fo, title: title}, nil
}

// firstArg is args' only element, or "" (the demo).
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// liveShow is live sources read once into a hub: each viewer takes up
// the hub's latest checkpoint and folds the hub's log on from there into
// threads of its own.
type liveShow struct {
	hub   *Hub
	a     *app.App
	fo    fold.Options
	title string
}

func (l *liveShow) Title() string { return l.title }

func (l *liveShow) Screen(ctx context.Context) (Screen, error) {
	feed := l.hub.Follow(ctx)
	m, err := l.a.LiveScreen(l.title, feed.Batches)
	if err != nil {
		return Screen{}, err
	}
	start := func(send func(tea.Msg)) {
		if feed.Start != nil {
			send(tui.TakenUpMsg{Threads: fold.ThreadsFromCheckpoint(feed.Start, l.fo)})
		}
		feed.Begin()
	}
	return Screen{Model: m, Status: feed.Status, Start: start, Behind: feed.Behind}, nil
}

// recordingShow is a recording every viewer plays on its own.
type recordingShow struct {
	rec *app.Recording
}

func (r *recordingShow) Title() string { return r.rec.Title() }

func (r *recordingShow) Screen(context.Context) (Screen, error) {
	m, err := r.rec.Screen()
	if err != nil {
		return Screen{}, err
	}
	return Screen{Model: m}, nil
}
