package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// replayOptions are the replay command's flags.
type replayOptions struct {
	speed   float64
	idleCap time.Duration
	startAt string
	loop    bool
	pace    time.Duration
}

// defaultReplay is what replay's flags default to.
func defaultReplay() *replayOptions {
	return &replayOptions{speed: 1, idleCap: replay.DefaultIdleCap, pace: replay.DefaultPace}
}

func (r *replayOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().Float64Var(&r.speed, "speed", 1, "play speed, 0.25 to 16 (keys + and - change it)")
	cmd.Flags().DurationVar(&r.idleCap, "idle-cap", replay.DefaultIdleCap, "shorten recorded gaps longer than this to it (0 keeps every gap)")
	cmd.Flags().StringVar(&r.startAt, "start-at", "", "start at a time (1m30s), a step (#12) or a share of the run (40%)")
	cmd.Flags().BoolVar(&r.loop, "loop", false, "start again from the beginning at the end")
	cmd.Flags().DurationVar(&r.pace, "pace", replay.DefaultPace, "time between events of a log without timestamps (0: only step with . and ,)")
}

func newReplayCommand(opts *commonOptions, stdout io.Writer) *cobra.Command {
	var ro replayOptions
	cmd := &cobra.Command{
		Use:   "replay [FILE]",
		Short: "Play a recorded log at its recorded pace, with pause, speed, step and seek",
		Long: `replay plays a recorded AG-UI log as it happened: each event at its recorded
time (its timestamp) divided by --speed, with gaps longer than --idle-cap
shortened to the cap. A log without timestamps plays one event every --pace.
With no FILE it plays the embedded demo.

Keys: space pause/resume, + and - speed, . and , one event forward/back,
←/→ previous/next step, [ and ] previous/next run, 0–9 jump to 0–90 %,
Home/End start/end; click a chip or the replay bar to seek there, drag to
scrub. ? shows every key. With --plain it prints the same lines as a live
watch does, paced.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(opts, &ro, fileArg(args), stdout)
		},
	}
	ro.addFlags(cmd)
	cmd.Flags().StringVar(&opts.layout, "layout", "auto", "screen layout: auto (side pane from 120 columns), side or sheet")
	cmd.Flags().BoolVar(&opts.plain, "plain", false, "print one line per change, paced, instead of the screen")
	return cmd
}

// check reports a flag out of range.
func (r *replayOptions) check() error {
	switch {
	case r.speed < replay.MinSpeed || r.speed > replay.MaxSpeed:
		return fmt.Errorf("--speed %v: want %v to %v", r.speed, replay.MinSpeed, replay.MaxSpeed)
	case r.idleCap < 0:
		return fmt.Errorf("--idle-cap %v: want 0 (off) or more", r.idleCap)
	case r.pace < 0:
		return fmt.Errorf("--pace %v: want 0 (step only) or more", r.pace)
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

// replaySource loads the log a replay plays.
func replaySource(opts *commonOptions, path string) (replay.Source, error) {
	in, closeIn, err := openInput(opts, path)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	recs, err := sources.ReadAll(in)
	if err != nil {
		return nil, &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w", displayName(path), err)}
	}
	return replay.Slice(recs), nil
}

func runReplay(opts *commonOptions, ro *replayOptions, path string, stdout io.Writer) error {
	if err := ro.check(); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	start, err := parseStartAt(ro.startAt)
	if err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	if err := checkLayout(opts); err != nil {
		return err
	}
	if recs, format, ok, err := messagesFile(path); err != nil {
		return err
	} else if ok {
		// Messages carry no times: there is nothing to pace.
		return reviewMessages(opts, path, recs, format, stdout)
	}
	fo, err := foldOptions(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var (
		src  replay.Source
		rest *indexing // the indexing still to do, for a file
	)
	recording, isRecording, err := acpRecordingFile(path)
	if err != nil {
		return err
	}
	switch {
	case isRecording: // an ACP session agentwatch recorded: its true pace
		src = replay.Slice(recording)
	case path == "" || path == "-":
		if src, err = replaySource(opts, path); err != nil {
			return err
		}
	default:
		log, ixr, done, err := openIndexed(path)
		if err != nil {
			return err
		}
		defer log.file.Close()
		src = log
		if !done {
			rest = &indexing{log: log, ixr: ixr}
		}
	}
	tl, err := newTimeline(src, fo)
	if err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	sched := replay.NewSchedule(src, replay.ScheduleOptions{IdleCap: ro.idleCap, Pace: ro.pace})
	plain := opts.plain || !isTerminal(stdout)
	if rest != nil {
		rest.sched, rest.tl = sched, tl
		if plain || start.kind != 0 {
			// Pacing a whole log and --start-at need all of it first.
			if err := rest.run(ctx); err != nil {
				return &exitError{code: exitUnreadable, err: fmt.Errorf("%s: %w", path, err)}
			}
			rest = nil
		}
	}
	if plain {
		return replayPlain(ctx, opts, ro, start, src, tl, sched, path, stdout)
	}
	p := replay.NewPlayer(src, tl, sched, replay.PlayerOptions{Speed: ro.speed, Loop: ro.loop})
	if err := start.seek(p); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	if err := p.Play(); err != nil {
		return err
	}
	return runPlayer(ctx, opts, displayName(path), p, rest, stdout)
}

// replayPlain prints the log's lines paced, as a live watch would.
func replayPlain(ctx context.Context, opts *commonOptions, ro *replayOptions, start startAt, src replay.Source,
	tl *replay.Timeline, sched *replay.Schedule, path string, stdout io.Writer) error {
	if ro.loop {
		return &exitError{code: exitUnreadable, err: fmt.Errorf("--loop needs the screen; with --plain the replay ends at the end of the log")}
	}
	// Where to start: the player knows how to read --start-at.
	p := replay.NewPlayer(src, tl, sched, replay.PlayerOptions{})
	if err := start.seek(p); err != nil {
		return &exitError{code: exitUnreadable, err: err}
	}
	recs := make(chan []model.Record, 64)
	pacer := replay.NewPacer(src, sched, replay.PacerOptions{Speed: ro.speed, From: p.Pos()})
	go func() {
		defer close(recs)
		_ = pacer.Run(ctx, recs)
	}()
	plain := *opts
	plain.plain = true
	return watch(ctx, &plain, displayName(path), recs, nil, stdout)
}

// runPlayer shows a player on the screen until the user quits, finishing
// the index of a big log (rest, when not nil) in the background meanwhile.
func runPlayer(ctx context.Context, opts *commonOptions, title string, p *replay.Player, rest *indexing, stdout io.Writer) error {
	app := tui.NewReplayApp(p, tui.AppOptions{Layout: opts.layout, Title: title})
	prog := tea.NewProgram(app, tea.WithInput(opts.stdinForKeys()), tea.WithOutput(stdout), tea.WithContext(ctx))
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
