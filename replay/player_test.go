package replay

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// manualClock is a fake clock that moves only when the test says so.
type manualClock struct{ now time.Time }

func (c *manualClock) Now() time.Time { return c.now }
func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}
func (c *manualClock) move(d time.Duration) { c.now = c.now.Add(d) }

var epoch = time.UnixMilli(1_700_000_000_000)

// timedLog is a run whose events are at the given offsets (ms); it has a
// tool call (a step) starting at the third event and a second run.
func timedLog(t *testing.T, ms ...int64) []model.Record {
	t.Helper()
	events := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1"%s}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"%s}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","parentMessageId":"m1"%s}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"%s}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"x1","toolCallId":"c1","content":"ok"%s}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"%s}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"%s}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2"%s}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"read_file"%s}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c2"%s}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r2"%s}`,
	}
	if len(ms) != 0 && len(ms) != len(events) {
		t.Fatalf("timedLog: %d offsets for %d events", len(ms), len(events))
	}
	var b bytes.Buffer
	for i, e := range events {
		ts := ""
		if len(ms) > 0 {
			ts = fmt.Sprintf(`,"timestamp":%d`, epoch.UnixMilli()+ms[i])
		}
		fmt.Fprintf(&b, e+"\n", ts)
	}
	recs, err := sources.ReadAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// offsets: a 9 s idle gap between events 4 and 5, and one of 3 s later.
var offsets = []int64{0, 100, 300, 400, 9400, 9500, 9600, 12600, 12700, 12800, 13000}

func newTestPlayer(t *testing.T, recs []model.Record, sopts ScheduleOptions, popts PlayerOptions) (*Player, *manualClock) {
	t.Helper()
	clk := &manualClock{now: epoch}
	popts.Clock = clk
	tl, err := BuildTimeline(Slice(recs), fold.Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	return NewPlayer(Slice(recs), tl, NewSchedule(Slice(recs), sopts), popts), clk
}

func ms(v ...int64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func scheduleOf(s *Schedule) []time.Duration {
	out := make([]time.Duration, s.Len())
	for i := range out {
		out[i] = s.At(i)
	}
	return out
}

func TestScheduleIdleCap(t *testing.T) {
	recs := timedLog(t, offsets...)
	off := NewSchedule(Slice(recs), ScheduleOptions{})
	if got, want := scheduleOf(off), ms(offsets...); !slices.Equal(got, want) {
		t.Errorf("idle cap off: %v, want %v", got, want)
	}
	on := NewSchedule(Slice(recs), ScheduleOptions{IdleCap: 2 * time.Second})
	want := ms(0, 100, 300, 400, 2400, 2500, 2600, 4600, 4700, 4800, 5000)
	if got := scheduleOf(on); !slices.Equal(got, want) {
		t.Errorf("idle cap 2s: %v, want %v", got, want)
	}
	if on.Total() != 5*time.Second || !on.Timed() {
		t.Errorf("Total %v Timed %v", on.Total(), on.Timed())
	}
	untimed := NewSchedule(Slice(timedLog(t)), ScheduleOptions{Pace: 100 * time.Millisecond})
	if got, want := scheduleOf(untimed), ms(0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000); !slices.Equal(got, want) {
		t.Errorf("untimed at 100 ms pace: %v, want %v", got, want)
	}
	if stepping := NewSchedule(Slice(timedLog(t)), ScheduleOptions{}); !stepping.SteppingOnly() {
		t.Error("an untimed log with pace 0 should be stepping only")
	}
}

// playOut runs the player on its fake clock to the end, returning the clock
// offset (from start) at which each position was reached.
func playOut(t *testing.T, p *Player, clk *manualClock) []time.Duration {
	t.Helper()
	start := clk.now
	var reached []time.Duration
	if err := p.Play(); err != nil {
		t.Fatal(err)
	}
	for guard := 0; guard < 1000; guard++ {
		before := p.Pos()
		wait, _, err := p.Advance()
		if err != nil {
			t.Fatal(err)
		}
		for range p.Pos() - before {
			reached = append(reached, clk.now.Sub(start))
		}
		if !p.Playing() {
			return reached
		}
		clk.move(wait)
	}
	t.Fatal("player never ended")
	return nil
}

func TestPlayerSchedule1xAnd4x(t *testing.T) {
	recs := timedLog(t, offsets...)
	capped := ms(0, 100, 300, 400, 2400, 2500, 2600, 4600, 4700, 4800, 5000)
	for _, tc := range []struct {
		speed float64
		cap   time.Duration
		want  []time.Duration
	}{
		{1, 2 * time.Second, capped},
		{4, 2 * time.Second, ms(0, 25, 75, 100, 600, 625, 650, 1150, 1175, 1200, 1250)},
		{1, 0, ms(offsets...)},
		{4, 0, ms(0, 25, 75, 100, 2350, 2375, 2400, 3150, 3175, 3200, 3250)},
	} {
		p, clk := newTestPlayer(t, recs, ScheduleOptions{IdleCap: tc.cap}, PlayerOptions{Speed: tc.speed})
		got := playOut(t, p, clk)
		if !slices.Equal(got, tc.want) {
			t.Errorf("speed %v cap %v: reached at %v, want %v", tc.speed, tc.cap, got, tc.want)
		}
		if !p.AtEnd() || p.Playing() || p.Elapsed() != p.Total() {
			t.Errorf("speed %v: at the end AtEnd=%v Playing=%v Elapsed=%v", tc.speed, p.AtEnd(), p.Playing(), p.Elapsed())
		}
	}
}

func TestPlayerPauseResumeNoJump(t *testing.T) {
	recs := timedLog(t, offsets...)
	p, clk := newTestPlayer(t, recs, ScheduleOptions{IdleCap: 2 * time.Second}, PlayerOptions{})
	p.Play()
	clk.move(350 * time.Millisecond)
	p.Advance()
	if p.Pos() != 3 {
		t.Fatalf("at 350 ms: pos %d, want 3", p.Pos())
	}
	p.Pause()
	clk.move(time.Hour)
	if w, _, _ := p.Advance(); p.Pos() != 3 || w != 0 {
		t.Fatalf("paused an hour: pos %d wait %v; want 3 and no wait", p.Pos(), w)
	}
	if p.Elapsed() != 350*time.Millisecond {
		t.Fatalf("paused clock reads %v, want 350ms", p.Elapsed())
	}
	p.Play()
	w, _, _ := p.Advance()
	if p.Pos() != 3 || w != 50*time.Millisecond {
		t.Fatalf("resumed: pos %d wait %v; want 3 and 50ms to record 3 (at 400 ms)", p.Pos(), w)
	}
	// Speed changes keep the clock where it is.
	p.SetSpeed(2)
	if w, _, _ := p.Advance(); w != 25*time.Millisecond {
		t.Fatalf("at 2x the 50 ms left take %v, want 25ms", w)
	}
}

func TestPlayerStepAndSeek(t *testing.T) {
	recs := timedLog(t, offsets...)
	p, _ := newTestPlayer(t, recs, ScheduleOptions{IdleCap: 2 * time.Second}, PlayerOptions{})
	check := func(what string, wantPos int, wantElapsed time.Duration) {
		t.Helper()
		if p.Pos() != wantPos {
			t.Fatalf("%s: pos %d, want %d", what, p.Pos(), wantPos)
		}
		if p.Elapsed() != wantElapsed {
			t.Fatalf("%s: elapsed %v, want %v", what, p.Elapsed(), wantElapsed)
		}
		if got, want := state(t, p.Threads()), state(t, foldShedding(recs[:wantPos], p.Timeline().Every())); !bytes.Equal(got, want) {
			t.Fatalf("%s: fold differs from folding the first %d records", what, wantPos)
		}
	}
	p.StepEvent(1)
	check("step forward", 1, 0)
	p.StepEvent(1)
	p.StepEvent(1)
	check("three steps forward", 3, 300*time.Millisecond)
	p.StepEvent(-1)
	check("step back", 2, 100*time.Millisecond)
	p.StepEvent(-5)
	check("step back past the start", 0, 0)
	p.SeekTime(2450 * time.Millisecond)
	check("seek to 2.45 s", 5, 2450*time.Millisecond)
	p.SeekPercent(50) // 2.5 s of 5 s
	check("seek to 50%", 6, 2500*time.Millisecond)
	p.SeekPercent(0)
	check("seek to 0%", 1, 0)
	p.SeekPercent(100)
	check("seek to 100%", 11, 5*time.Second)
	if _, err := p.SeekStep(1); err != nil {
		t.Fatal(err)
	}
	check("seek to step #2", 9, 4700*time.Millisecond)
	if _, err := p.SeekStep(2); err == nil {
		t.Fatal("seek to step #3 of 2: want an error")
	}
	p.NextStep(-1)
	check("previous step", 3, 300*time.Millisecond)
	p.NextStep(-1)
	check("before the first step", 0, 0)
	p.NextStep(1)
	check("next step", 3, 300*time.Millisecond)
	p.NextRun(1)
	check("next run", 8, 4600*time.Millisecond)
	p.NextRun(-1)
	check("previous run", 1, 0)
}

func TestPlayerEndAndLoop(t *testing.T) {
	recs := timedLog(t, offsets...)
	p, clk := newTestPlayer(t, recs, ScheduleOptions{IdleCap: 2 * time.Second}, PlayerOptions{Loop: true})
	p.Play()
	clk.move(5 * time.Second)
	wait, replaced, err := p.Advance()
	if err != nil {
		t.Fatal(err)
	}
	if !replaced || !p.Playing() || p.Pos() != 0 || wait != 0 {
		t.Fatalf("loop at the end: replaced %v playing %v pos %d wait %v; want a new fold at 0, still playing", replaced, p.Playing(), p.Pos(), wait)
	}
	p.Advance()
	if p.Pos() != 1 {
		t.Fatalf("after looping, record 0 plays at once: pos %d", p.Pos())
	}
	clk.move(100 * time.Millisecond)
	p.Advance()
	if p.Pos() != 2 {
		t.Fatalf("second time round at 100 ms: pos %d, want 2", p.Pos())
	}
	// Without loop, Play at the end starts again.
	q, qclk := newTestPlayer(t, recs, ScheduleOptions{IdleCap: 2 * time.Second}, PlayerOptions{})
	playOut(t, q, qclk)
	if err := q.Play(); err != nil || q.Pos() != 0 || !q.Playing() {
		t.Fatalf("Play at the end: pos %d playing %v err %v; want to start again", q.Pos(), q.Playing(), err)
	}
}

func TestPlayerSpeeds(t *testing.T) {
	p, _ := newTestPlayer(t, timedLog(t, offsets...), ScheduleOptions{}, PlayerOptions{})
	var got []float64
	for range 8 {
		p.Faster()
		got = append(got, p.Speed())
	}
	if want := []float64{2, 4, 8, 16, 16, 16, 16, 16}; !slices.Equal(got, want) {
		t.Errorf("Faster: %v, want %v", got, want)
	}
	got = got[:0]
	for range 8 {
		p.Slower()
		got = append(got, p.Speed())
	}
	if want := []float64{8, 4, 2, 1, 0.5, 0.25, 0.25, 0.25}; !slices.Equal(got, want) {
		t.Errorf("Slower: %v, want %v", got, want)
	}
	p.SetSpeed(100)
	if p.Speed() != MaxSpeed {
		t.Errorf("SetSpeed(100) = %v", p.Speed())
	}
}

func TestPlayerSteppingOnly(t *testing.T) {
	p, clk := newTestPlayer(t, timedLog(t), ScheduleOptions{}, PlayerOptions{})
	p.Play()
	clk.move(time.Hour)
	if _, _, err := p.Advance(); err != nil || p.Pos() != 0 || p.Playing() {
		t.Fatalf("stepping-only log played: pos %d playing %v err %v", p.Pos(), p.Playing(), err)
	}
	p.StepEvent(1)
	if p.Pos() != 1 {
		t.Fatalf("stepping: pos %d", p.Pos())
	}
}

// The seek law through the player: seeking to k, then playing to the end,
// folds to what playing from the start does — for every k of a short log
// and the positions seekSplits picks in a longer one, each reached from
// somewhere else first (so backward seeks are covered). Both shed where
// the timeline does.
func TestPlayerSeekLaw(t *testing.T) {
	for name, recs := range seekFixtures(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, clk := newTestPlayer(t, recs, ScheduleOptions{IdleCap: time.Second, Pace: time.Millisecond}, PlayerOptions{Speed: 16})
			want := state(t, foldShedding(recs, p.Timeline().Every()))
			for _, k := range seekSplits(recs, p.Timeline().Every()) {
				from := (k * 7919) % (len(recs) + 1) // somewhere else first
				if _, err := p.Seek(from); err != nil {
					t.Fatal(err)
				}
				if _, err := p.Seek(k); err != nil {
					t.Fatal(err)
				}
				if p.Pos() != k {
					t.Fatalf("Seek(%d) from %d: pos %d", k, from, p.Pos())
				}
				if k < len(recs) {
					if err := p.Play(); err != nil {
						t.Fatal(err)
					}
					for p.Playing() {
						wait, _, err := p.Advance()
						if err != nil {
							t.Fatal(err)
						}
						clk.move(wait)
					}
				}
				if got := state(t, p.Threads()); !bytes.Equal(got, want) {
					t.Fatalf("seek to %d (from %d) then play to the end differs from playing from the start", k, from)
				}
			}
		})
	}
}

// A log of several threads plays in the order of its records; Fold is the
// fold of the thread being played, before and after a seek.
func TestPlayerThreads(t *testing.T) {
	recs, err := sources.ReadAll(bytes.NewReader(loggen.GenerateThreads(900, 3, 2)))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := newTestPlayer(t, recs, ScheduleOptions{}, PlayerOptions{})
	if p.Thread() != nil || len(p.Fold().Items()) != 0 {
		t.Fatal("before the first record the player shows a thread")
	}
	seen := map[string]bool{}
	for k := 1; k <= len(recs); k += 7 {
		if _, err := p.Seek(k); err != nil {
			t.Fatal(err)
		}
		th := p.Thread()
		if th == nil || th.LastSeq != recs[k-1].Seq || p.Fold() != th.Fold {
			t.Fatalf("at %d the player shows thread %v, want the thread of record #%d", k, th, recs[k-1].Seq)
		}
		seen[th.ID] = true
	}
	if len(seen) != 3 || p.Threads().Len() != 3 {
		t.Fatalf("played %d threads of %d, want 3", len(seen), p.Threads().Len())
	}
}

// A subset reads its records from the source in order, in runs.
func TestSubset(t *testing.T) {
	recs := timedLog(t, offsets...)
	s := Subset(Slice(recs), []int{1, 2, 4})
	if s.Len() != 3 || !s.Time(2).Equal(recs[4].At) {
		t.Fatalf("Len %d, Time(2) %v", s.Len(), s.Time(2))
	}
	got, err := s.Records(0, 3)
	if err != nil || len(got) != 3 || got[0].Seq != recs[1].Seq || got[1].Seq != recs[2].Seq || got[2].Seq != recs[4].Seq {
		t.Fatalf("Records(0, 3) = %v, %v", got, err)
	}
	if _, err := s.Records(2, 4); err == nil {
		t.Fatal("Records past the end: want an error")
	}
}
