package replay

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Speeds are the speeds Faster and Slower step through.
var Speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16}

// MinSpeed and MaxSpeed bound a player's speed.
const (
	MinSpeed = 0.25
	MaxSpeed = 16
)

// PlayerOptions configure a Player.
type PlayerOptions struct {
	// Speed divides the schedule's gaps; 0 means 1.
	Speed float64
	// Loop starts again from the beginning at the end.
	Loop bool
	// Clock defaults to RealClock.
	Clock Clock
}

// Player plays a recorded log into a fold at its recorded pace, and pauses,
// steps, changes speed and seeks. It owns the replay's time: the screen asks
// it what to show and when to ask again. Pausing stops the play clock and
// resuming continues from where it stopped (asciinema's player moves its
// epoch the same way), so nothing jumps. It is not safe for concurrent use.
type Player struct {
	src   Source
	tl    *Timeline
	sched *Schedule
	clock Clock
	loop  bool

	f   *fold.Threads
	pos int // records applied to f
	// empty is the fold shown before any record is played.
	empty *fold.Fold

	playing bool
	speed   float64
	// While playing, the play clock reads base + (now − since) × speed;
	// while paused, base.
	base  time.Duration
	since time.Time
}

// NewPlayer returns a paused player at the start of the log. The timeline
// and schedule must be over src; they may still be growing.
func NewPlayer(src Source, tl *Timeline, sched *Schedule, opts PlayerOptions) *Player {
	if opts.Clock == nil {
		opts.Clock = RealClock
	}
	p := &Player{src: src, tl: tl, sched: sched, clock: opts.Clock, loop: opts.Loop, f: fold.NewThreads(tl.opts), empty: fold.New(tl.opts)}
	p.speed = clampSpeed(opts.Speed)
	return p
}

func clampSpeed(s float64) float64 {
	if s == 0 || math.IsNaN(s) {
		return 1
	}
	return min(max(s, MinSpeed), MaxSpeed)
}

// Fold is the fold of the thread being played: the thread of the last
// record played (an empty fold before the first). A log of many threads
// is played in the order of its records, so this may be another thread
// after every call that moves the player; a seek may replace it too:
// callers read it again after every such call.
func (p *Player) Fold() *fold.Fold {
	if th := p.f.Last(); th != nil {
		return th.Fold
	}
	return p.empty
}

// Thread is the thread being played (nil before the first record).
func (p *Player) Thread() *fold.Thread { return p.f.Last() }

// Threads is every thread of the records played so far.
func (p *Player) Threads() *fold.Threads { return p.f }

// Pos is how many records have been played.
func (p *Player) Pos() int { return p.pos }

// Len is how many records the log has (so far, while it is being indexed).
func (p *Player) Len() int { return min(p.sched.Len(), p.tl.Len()) }

// Playing reports whether the player is playing (not paused).
func (p *Player) Playing() bool { return p.playing }

// Speed is the current speed.
func (p *Player) Speed() float64 { return p.speed }

// Loop reports whether the player starts again at the end.
func (p *Player) Loop() bool { return p.loop }

// Schedule is the compressed timeline the player follows.
func (p *Player) Schedule() *Schedule { return p.sched }

// Timeline is the player's checkpoints and markers.
func (p *Player) Timeline() *Timeline { return p.tl }

// Elapsed is the play clock: where on the compressed timeline the player is.
func (p *Player) Elapsed() time.Duration {
	if !p.playing {
		return p.base
	}
	return p.base + time.Duration(float64(p.clock.Now().Sub(p.since))*p.speed)
}

// Total is the compressed timeline's length.
func (p *Player) Total() time.Duration { return p.sched.Total() }

// AtEnd reports whether every record known has been played.
func (p *Player) AtEnd() bool { return p.pos >= p.Len() }

// Play starts or resumes playing; at the end it starts again from the
// beginning.
func (p *Player) Play() error {
	if p.playing {
		return nil
	}
	if p.AtEnd() && p.Len() > 0 {
		if _, err := p.Seek(0); err != nil {
			return err
		}
	}
	p.playing, p.since = true, p.clock.Now()
	return nil
}

// Pause stops the play clock where it is.
func (p *Player) Pause() {
	if p.playing {
		p.base = p.Elapsed()
		p.playing = false
	}
}

// Toggle pauses a playing player and plays a paused one.
func (p *Player) Toggle() error {
	if p.playing {
		p.Pause()
		return nil
	}
	return p.Play()
}

// SetSpeed changes the speed (clamped to MinSpeed–MaxSpeed) without moving
// the play clock.
func (p *Player) SetSpeed(s float64) {
	if p.playing {
		p.base, p.since = p.Elapsed(), p.clock.Now()
	}
	p.speed = clampSpeed(s)
}

// Faster moves to the next of Speeds above the current speed.
func (p *Player) Faster() {
	for _, s := range Speeds {
		if s > p.speed {
			p.SetSpeed(s)
			return
		}
	}
}

// Slower moves to the next of Speeds below the current speed.
func (p *Player) Slower() {
	for _, s := range slices.Backward(Speeds) {
		if s < p.speed {
			p.SetSpeed(s)
			return
		}
	}
}

// Advance plays every record due by now and returns how long until the next
// one is due (0 when nothing is scheduled: paused, stepping only, or at the
// end). The records played are in Fold; replaced says the fold was
// replaced (by a loop back to the start).
func (p *Player) Advance() (wait time.Duration, replaced bool, err error) {
	if !p.playing {
		return 0, false, nil
	}
	if p.sched.SteppingOnly() {
		p.Pause()
		return 0, false, nil
	}
	now := p.Elapsed()
	n := min(p.sched.Due(now), p.Len())
	if n > p.pos {
		if err := p.forward(n); err != nil {
			return 0, false, err
		}
	}
	if p.AtEnd() {
		if p.loop && p.Len() > 0 {
			// Start again: the loop plays record 0 as soon as it ends.
			if _, err := p.Seek(0); err != nil {
				return 0, false, err
			}
			p.playing, p.since = true, p.clock.Now()
			return p.wait(), true, nil
		}
		p.Pause()
		p.base = p.sched.Total()
		return 0, false, nil
	}
	return p.wait(), false, nil
}

// wait is how long until the next record is due, at the current speed.
func (p *Player) wait() time.Duration {
	if p.AtEnd() {
		return 0
	}
	d := time.Duration(float64(p.sched.At(p.pos)-p.Elapsed()) / p.speed)
	return max(d, 0)
}

// forward plays records up to position n (n > pos) into the current fold,
// shedding where the timeline does (at each of its checkpoints): the fold
// at a position is then the same however the player came to it, and
// playing a whole log holds what the timeline's checkpoints hold, not all
// the log said.
func (p *Player) forward(n int) error {
	every := p.tl.Every()
	for p.pos < n {
		j := min(n, (p.pos/every+1)*every)
		recs, err := p.src.Records(p.pos, j)
		if err != nil {
			return fmt.Errorf("replay: records %d–%d: %w", p.pos, j, err)
		}
		p.f.Apply(source, recs...)
		p.pos = j
		if j%every == 0 {
			ShedForCheckpoint(p.f)
		}
	}
	return nil
}

// Seek moves to position k: the fold of the first k records, the play clock
// at the time of record k−1. It keeps playing if it was. A seek forward by
// less than a checkpoint spacing folds on; any other restores a checkpoint.
// replaced says Fold now returns a new fold.
func (p *Player) Seek(k int) (replaced bool, err error) {
	k = min(max(k, 0), p.Len())
	if k >= p.pos && k-p.pos < p.tl.Every() {
		if k > p.pos {
			if err := p.forward(k); err != nil {
				return false, err
			}
		}
	} else {
		ts, err := p.tl.At(k)
		if err != nil {
			return false, err
		}
		p.f, p.pos, replaced = ts, k, true
	}
	p.base = 0
	if k > 0 {
		p.base = p.sched.At(k - 1)
	}
	p.since = p.clock.Now()
	return replaced, nil
}

// SeekTime moves to the position the play clock reads d: every record
// scheduled at or before d played.
func (p *Player) SeekTime(d time.Duration) (bool, error) {
	d = min(max(d, 0), p.sched.Total())
	replaced, err := p.Seek(min(p.sched.Due(d), p.Len()))
	p.base = d
	return replaced, err
}

// SeekPercent moves to pct percent (0–100) of the compressed timeline; a
// log without times is measured in records.
func (p *Player) SeekPercent(pct float64) (bool, error) {
	pct = min(max(pct, 0), 100)
	if p.sched.Total() == 0 {
		return p.Seek(int(math.Round(float64(p.Len()) * pct / 100)))
	}
	return p.SeekTime(time.Duration(float64(p.sched.Total()) * pct / 100))
}

// SeekStep moves to where step i (from 0) appears.
func (p *Player) SeekStep(i int) (bool, error) {
	starts := p.tl.StepStarts()
	if i < 0 || i >= len(starts) {
		return false, fmt.Errorf("replay: no step #%d (the log has %d so far)", i+1, len(starts))
	}
	return p.Seek(starts[i])
}

// StepEvent moves one record forward (n = 1) or back (n = −1), or n
// records; it pauses first, as a player's step keys do.
func (p *Player) StepEvent(n int) (bool, error) {
	p.Pause()
	return p.Seek(p.pos + n)
}

// NextStep moves to the first step that appears after the current position
// (dir = 1) or to the start of the step before the one showing (dir = −1).
func (p *Player) NextStep(dir int) (bool, error) {
	return p.nextMarker(p.tl.StepStarts(), dir)
}

// NextRun is NextStep for runs.
func (p *Player) NextRun(dir int) (bool, error) {
	return p.nextMarker(p.tl.RunStarts(), dir)
}

func (p *Player) nextMarker(at []int, dir int) (bool, error) {
	if dir > 0 {
		for _, k := range at {
			if k > p.pos {
				return p.Seek(k)
			}
		}
		return false, nil
	}
	// The marker showing is the last at or before pos; go to the one
	// before it, or to the start.
	i := sortSearchInts(at, p.pos+1) - 1 // markers ≤ pos
	switch {
	case i >= 1:
		return p.Seek(at[i-1])
	case p.pos > 0:
		return p.Seek(0)
	}
	return false, nil
}

// sortSearchInts is the index of the first element ≥ x in sorted a.
func sortSearchInts(a []int, x int) int {
	i, _ := slices.BinarySearch(a, x)
	return i
}

// Records returns records i to j-1 of the log, for views that show raw events.
func (p *Player) Records(i, j int) ([]model.Record, error) { return p.src.Records(i, j) }
