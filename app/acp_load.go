package app

import (
	"context"
	"sync"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources/acpconn"
)

// loadQuiet is how long the history of a loaded session may pause before it
// counts as complete: some agents (Gemini) send it after answering
// session/load.
const loadQuiet = 500 * time.Millisecond

// loadLimit bounds the wait for history after the answer.
const loadLimit = 10 * time.Second

// collector gathers a connection's records.
type collector struct {
	mu   sync.Mutex
	recs []model.Record
	last time.Time
}

func (c *collector) run(in <-chan []model.Record) {
	for b := range in {
		c.mu.Lock()
		c.recs = append(c.recs, b...)
		c.last = time.Now()
		c.mu.Unlock()
	}
}

func (c *collector) quietFor() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.last)
}

func (c *collector) all() []model.Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recs
}

// loadSession opens its own connection, loads session ao.Load and returns
// every line of it, the history that came after the answer included. ACP
// updates carry no times, so the records' times are cleared: the replay
// plays them at --pace.
func loadSession(ctx context.Context, opts *Options, ao *ACPOptions, args []string) ([]model.Record, error) {
	s, err := startACP(opts, ao, args, acpconn.Permissions{}, true)
	if err != nil {
		return nil, err
	}
	col := &collector{last: time.Now()}
	done := make(chan struct{})
	go func() { col.run(s.conn.Records()); close(done) }()
	loadErr := handshake(ctx, s, ao)
	if loadErr == nil {
		deadline := time.Now().Add(loadLimit)
		for col.quietFor() < loadQuiet && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(loadQuiet / 5)
		}
	}
	closeErr := s.close()
	<-done
	if closeErr != nil { // a recording that failed stopped the load
		return nil, BadInput(closeErr)
	}
	if loadErr != nil {
		return nil, BadInput(withStderr(loadErr, s))
	}
	recs := col.all()
	for i := range recs {
		recs[i].At = time.Time{}
	}
	return recs, nil
}

// acpLoad replays a loaded session with the replay controls.
func (a *App) acpLoad(ctx context.Context, ao *ACPOptions, args []string, fo fold.Options) error {
	opts := a.Options
	recs, err := loadSession(ctx, opts, ao, args)
	if err != nil {
		return err
	}
	src := replay.Slice(recs)
	tl, err := newTimeline(src, fo)
	if err != nil {
		return BadInput(err)
	}
	tl.Release() // the session is whole
	sched := replay.NewSchedule(src, replay.ScheduleOptions{Pace: ao.Pace})
	ro := DefaultReplay()
	ro.Pace = ao.Pace
	title := "session " + ao.Load
	if opts.Plain || !opts.screen() {
		return a.replayPlain(ctx, ro, startAt{}, src, tl, sched, title)
	}
	p := replay.NewPlayer(src, tl, sched, replay.PlayerOptions{})
	if err := p.Play(); err != nil {
		return err
	}
	return runPlayer(ctx, opts, title, p, nil)
}
