package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/replay"
)

// newReplayCommand is `agentwatch replay [FILE]`: paced replay.
func newReplayCommand(a *app.App) *cobra.Command {
	opts := a.Options
	ro := app.DefaultReplay()
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
watch does, paced.

A log of several threads plays in the order of its events, the screen
showing the thread being played; --thread ID plays one thread (of a log,
or of a folder of logs).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := identify(a, args)
			if err != nil {
				return err
			}
			return a.Replay(ro, src)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&ro.Speed, "speed", 1, "play speed, 0.25 to 16 (keys + and - change it)")
	f.DurationVar(&ro.IdleCap, "idle-cap", replay.DefaultIdleCap, "shorten recorded gaps longer than this to it (0 keeps every gap)")
	f.StringVar(&ro.StartAt, "start-at", "", "start at a time (1m30s), a step (#12) or a share of the run (40%)")
	f.BoolVar(&ro.Loop, "loop", false, "start again from the beginning at the end")
	f.DurationVar(&ro.Pace, "pace", replay.DefaultPace, "time between events of a log without timestamps (0: only step with . and ,)")
	threadFlag(cmd, &ro.Thread)
	layoutFlag(cmd, opts)
	plainFlag(cmd, opts, "print one line per change, paced, instead of the screen")
	return cmd
}
