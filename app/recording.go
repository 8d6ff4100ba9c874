package app

import (
	"fmt"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/tui/images"
)

// Recording is a recorded log read whole once, from which a server gives
// every viewer a player of its own. The records, the timeline of
// checkpoints and the schedule are built once and shared: players only
// read them (a Timeline is safe for many seekers), so a viewer costs its
// own fold, not another pass over the log.
type Recording struct {
	title  string
	layout string
	images images.Choice
	ro     ReplayOptions
	recs   replay.Source
	tl     *replay.Timeline
	sched  *replay.Schedule
}

// OpenRecording reads src whole for replay: the demo, an event log (an ACP
// recording plays at its true pace), an OTLP file. Messages files carry no times and are
// not played; folders are followed, not played.
func (a *App) OpenRecording(ro *ReplayOptions, src *Source) (*Recording, error) {
	opts := a.Options
	if err := ro.check(); err != nil {
		return nil, BadInput(err)
	}
	if err := opts.CheckLayout(); err != nil {
		return nil, err
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return nil, err
	}
	if err := withToolKinds(opts, src); err != nil {
		return nil, err
	}
	var recs []model.Record
	switch src.Kind {
	case KindOTLP:
		recs = src.Records
	case KindDemo, KindEventLog, KindStdin:
		in, closeIn, err := src.Open(opts.Stdin)
		if err != nil {
			return nil, err
		}
		recs, err = sources.ReadAll(in)
		closeIn()
		if err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", src.Name(), err))
		}
	default:
		return nil, BadInput(fmt.Errorf("%s is a %s: it is shown as it is, not played", src.Name(), src.Kind))
	}
	rs := replay.Slice(recs)
	tl, err := newTimeline(rs, fo)
	if err != nil {
		return nil, BadInput(fmt.Errorf("%s: %w", src.Name(), err))
	}
	tl.Release() // the recording is whole
	return &Recording{title: src.Name(), layout: opts.Layout, images: opts.Images, ro: *ro, recs: rs, tl: tl,
		sched: replay.NewSchedule(rs, replay.ScheduleOptions{IdleCap: ro.IdleCap, Pace: ro.Pace})}, nil
}

// Title is the recording's name, for the title bar and the server's log.
func (r *Recording) Title() string { return r.title }

// Screen is a new viewer's screen: a player of its own, playing from the
// start.
func (r *Recording) Screen() (*tui.App, error) {
	p := replay.NewPlayer(r.recs, r.tl, r.sched, replay.PlayerOptions{Speed: r.ro.Speed, Loop: r.ro.Loop})
	if err := p.Play(); err != nil {
		return nil, err
	}
	return tui.NewReplayApp(p, tui.AppOptions{Layout: r.layout, Images: r.images, Title: r.title}), nil
}
