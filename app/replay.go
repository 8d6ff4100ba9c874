package app

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// ReplayOptions are how a recorded log is played.
type ReplayOptions struct {
	// Speed divides the recorded gaps (replay.MinSpeed to MaxSpeed).
	Speed float64
	// IdleCap shortens longer recorded gaps to it (0 keeps every gap).
	IdleCap time.Duration
	// StartAt is where to start: a time (1m30s), a step (#12) or a share (40%).
	StartAt string
	// Loop starts again from the beginning at the end.
	Loop bool
	// Pace is the time between events of a log without timestamps (0: step only).
	Pace time.Duration
	// Thread plays only the thread with this id ("" plays every thread, in
	// the order of the log's records).
	Thread string
}

// DefaultReplay is what the replay flags default to.
func DefaultReplay() *ReplayOptions {
	return &ReplayOptions{Speed: 1, IdleCap: replay.DefaultIdleCap, Pace: replay.DefaultPace}
}

// check reports a value out of range.
func (r *ReplayOptions) check() error {
	switch {
	case r.Speed < replay.MinSpeed || r.Speed > replay.MaxSpeed:
		return fmt.Errorf("--speed %v: want %v to %v", r.Speed, replay.MinSpeed, replay.MaxSpeed)
	case r.IdleCap < 0:
		return fmt.Errorf("--idle-cap %v: want 0 (off) or more", r.IdleCap)
	case r.Pace < 0:
		return fmt.Errorf("--pace %v: want 0 (step only) or more", r.Pace)
	}
	return nil
}

// startAt is a parsed --start-at.
type startAt struct {
	step    int // 1-based; 0 when not a step
	percent float64
	at      time.Duration
	kind    byte // 0 none, '#', '%', 't'
}

func parseStartAt(s string) (startAt, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("--start-at %q: want a time (1m30s), a step (#12) or a percentage (40%%)", s)
	switch {
	case s == "":
		return startAt{}, nil
	case strings.HasPrefix(s, "#"):
		n, err := strconv.Atoi(s[1:])
		if err != nil || n < 1 {
			return startAt{}, bad
		}
		return startAt{kind: '#', step: n}, nil
	case strings.HasSuffix(s, "%"):
		p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || p < 0 || p > 100 {
			return startAt{}, bad
		}
		return startAt{kind: '%', percent: p}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return startAt{}, bad
	}
	return startAt{kind: 't', at: d}, nil
}

// seek moves p to the start position.
func (s startAt) seek(p *replay.Player) error {
	var err error
	switch s.kind {
	case '#':
		_, err = p.SeekStep(s.step - 1)
	case '%':
		_, err = p.SeekPercent(s.percent)
	case 't':
		_, err = p.SeekTime(s.at)
	}
	if err != nil {
		return fmt.Errorf("--start-at: %w", err)
	}
	return nil
}

// Replay plays a recorded source at its recorded pace: on the screen with
// the replay controls, or as paced lines with --plain. A big file opens
// before it is fully indexed; messages files, which carry no times, open
// for step-through instead.
func (a *App) Replay(ro *ReplayOptions, src *Source) error {
	opts := a.Options
	if err := ro.check(); err != nil {
		return BadInput(err)
	}
	start, err := parseStartAt(ro.StartAt)
	if err != nil {
		return BadInput(err)
	}
	if err := opts.CheckLayout(); err != nil {
		return err
	}
	if src.Kind == KindMessages {
		// Messages carry no times: there is nothing to pace.
		return a.reviewMessages(src)
	}
	if err := withToolKinds(opts, src); err != nil {
		return err
	}
	if src.Kind == KindFolder {
		if ro.Thread == "" {
			return BadInput(fmt.Errorf("%s is a folder: replay plays one log; name one of its files, or a thread with --thread ID (agentwatch threads %s lists them)", src.Arg, src.Arg))
		}
		file, err := a.fileOfThread(src, ro.Thread)
		if err != nil {
			return err
		}
		src = file
	}
	fo, err := opts.FoldOptions()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var (
		rs   replay.Source
		rest *indexing // the indexing still to do, for a file
	)
	switch src.Kind {
	case KindOTLP: // recorded with their times: their true pace
		rs = replay.Slice(src.Records)
	case KindDemo, KindStdin, KindURL:
		in, closeIn, err := src.Open(opts.Stdin)
		if err != nil {
			return err
		}
		recs, err := sources.ReadAll(in)
		closeIn()
		if err != nil {
			return BadInput(fmt.Errorf("%s: %w", src.Name(), err))
		}
		rs = replay.Slice(recs)
	default:
		if src.Found {
			tuneForReplay(src.Size) // the fold of the whole log, its checkpoints and index stay
		}
		log, ixr, done, err := openIndexed(src.Arg)
		if err != nil {
			return err
		}
		defer log.file.Close()
		rs = log
		if !done {
			rest = &indexing{log: log, ixr: ixr}
		}
	}
	title := src.Name()
	if ro.Thread != "" {
		if rest != nil {
			// Which records are the thread's is known once all are read.
			if err := rest.finish(ctx); err != nil {
				return BadInput(fmt.Errorf("%s: %w", src.Arg, err))
			}
			rest = nil
		}
		if rs, err = threadOnly(rs, src, ro.Thread); err != nil {
			return err
		}
		title += " · thread " + ro.Thread
	}
	tl, err := newTimeline(rs, fo)
	if err != nil {
		return BadInput(err)
	}
	sched := replay.NewSchedule(rs, replay.ScheduleOptions{IdleCap: ro.IdleCap, Pace: ro.Pace})
	plain := opts.Plain || !opts.screen()
	if rest != nil {
		rest.sched, rest.tl = sched, tl
		if plain || start.kind != 0 {
			// Pacing a whole log and --start-at need all of it first.
			if err := rest.run(ctx); err != nil {
				return BadInput(fmt.Errorf("%s: %w", src.Arg, err))
			}
			rest = nil
		}
	}
	if rest == nil {
		tl.Release() // the log is whole
	}
	if plain {
		return a.replayPlain(ctx, ro, start, rs, tl, sched, title)
	}
	p := replay.NewPlayer(rs, tl, sched, replay.PlayerOptions{Speed: ro.Speed, Loop: ro.Loop})
	if err := start.seek(p); err != nil {
		return BadInput(err)
	}
	if err := p.Play(); err != nil {
		return err
	}
	return runPlayer(ctx, opts, title, p, rest)
}

// threadOnly is the records of rs that belong to thread id, as a Source.
func threadOnly(rs replay.Source, src *Source, id string) (replay.Source, error) {
	ts := fold.NewThreads(fold.Options{})
	var pos [][]int // by thread index
	for i := 0; i < rs.Len(); i += 4096 {
		recs, err := rs.Records(i, min(rs.Len(), i+4096))
		if err != nil {
			return nil, BadInput(fmt.Errorf("%s: %w", src.Name(), err))
		}
		for k := range recs {
			th := ts.Route(src.Name(), &recs[k])
			n := ts.Index(th)
			for len(pos) <= n {
				pos = append(pos, nil)
			}
			pos[n] = append(pos[n], i+k)
		}
	}
	th, err := SelectThread(ts, src, id)
	if err != nil {
		return nil, err
	}
	return replay.Subset(rs, pos[ts.Index(th)]), nil
}

// fileOfThread finds the file of a folder that holds thread id: first the
// files named after it (as agents name per-thread logs), then the rest.
func (a *App) fileOfThread(src *Source, id string) (*Source, error) {
	members, _ := src.Members()
	slices.SortStableFunc(members, func(x, y *Source) int {
		return cmp.Compare(nameScore(y.Arg, id), nameScore(x.Arg, id))
	})
	for _, m := range members {
		ts, _, err := a.FoldThreads(m)
		if err != nil {
			continue
		}
		if _, err := SelectThread(ts, m, id); err == nil {
			return m, nil
		}
	}
	return nil, BadInput(fmt.Errorf("--thread %s: no log in %s holds that thread (agentwatch threads %s lists them)", id, src.Arg, src.Arg))
}

// nameScore is 1 when path's base name, less its extension, is id.
func nameScore(path, id string) int {
	base := filepath.Base(path)
	if strings.TrimSuffix(base, filepath.Ext(base)) == id {
		return 1
	}
	return 0
}

// replayPlain prints the log's lines paced, as a live watch would.
func (a *App) replayPlain(ctx context.Context, ro *ReplayOptions, start startAt, src replay.Source,
	tl *replay.Timeline, sched *replay.Schedule, title string) error {
	if ro.Loop {
		return BadInput(fmt.Errorf("--loop needs the screen; with --plain the replay ends at the end of the log"))
	}
	// Where to start: the player knows how to read --start-at.
	p := replay.NewPlayer(src, tl, sched, replay.PlayerOptions{})
	if err := start.seek(p); err != nil {
		return BadInput(err)
	}
	recs := make(chan []model.Record, 64)
	pacer := replay.NewPacer(src, sched, replay.PacerOptions{Speed: ro.Speed, From: p.Pos()})
	go func() {
		defer close(recs)
		_ = pacer.Run(ctx, recs)
	}()
	plain := *a.Options
	plain.Plain = true
	return a.withOptions(&plain).Watch(ctx, title, oneSource(ctx, title, recs), nil)
}

// runPlayer shows a player on the screen until the user quits, finishing
// the index of a big log (rest, when not nil) in the background meanwhile.
func runPlayer(ctx context.Context, opts *Options, title string, p *replay.Player, rest *indexing) error {
	app := tui.NewReplayApp(p, tui.AppOptions{Layout: opts.Layout, Images: opts.Images, Clipboard: localClipboard(), Title: title})
	prog := newProgram(app, opts, tea.WithContext(ctx))
	go prog.Send(tea.RequestBackgroundColor()) // light or dark markdown theme
	if rest != nil {
		ictx, cancel := context.WithCancel(ctx)
		defer cancel()
		last := time.Now()
		rest.progress = func(n int, done bool) {
			switch {
			case done:
				prog.Send(tui.SourceStatusMsg(""))
			case time.Since(last) > 250*time.Millisecond:
				last = time.Now()
				prog.Send(tui.SourceStatusMsg(fmt.Sprintf("indexing… %d events", n)))
			}
		}
		go func() {
			if err := rest.run(ictx); err != nil && ictx.Err() == nil {
				prog.Send(tui.SourceStatusMsg("indexing stopped: " + err.Error()))
			}
		}()
	}
	if _, err := prog.Run(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("screen: %w", err)
	}
	return nil
}
