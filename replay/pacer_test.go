package replay

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// fakeClock advances only when a waiter asks it to: After moves time
// forward by d at once, so a replay runs instantly and exactly.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- now
	return ch
}

func recsAt(ms ...int64) []model.Record {
	t0 := time.UnixMilli(1_760_000_000_000)
	recs := make([]model.Record, len(ms))
	for i, m := range ms {
		recs[i].Seq = uint64(i + 1)
		if m >= 0 {
			recs[i].At = t0.Add(time.Duration(m) * time.Millisecond)
		}
	}
	return recs
}

// play runs a pacer on a fake clock and returns, per batch, when it was
// sent (from the start) and which records it held.
// pacerCase is a pacer's options and the schedule's idle cap.
type pacerCase struct {
	PacerOptions
	idleCap time.Duration
}

func play(t *testing.T, recs []model.Record, opts pacerCase) (times []time.Duration, batches [][]uint64) {
	t.Helper()
	clock := &fakeClock{now: time.Unix(0, 0)}
	opts.Clock = clock
	src := &timedSource{Slice: Slice(recs), clock: clock}
	p := NewPacer(src, NewSchedule(src, ScheduleOptions{IdleCap: opts.idleCap}), opts.PacerOptions)
	out := make(chan []model.Record, len(recs)+1)
	if err := p.Run(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	close(out)
	for b := range out {
		var seqs []uint64
		for _, r := range b {
			seqs = append(seqs, r.Seq)
		}
		batches = append(batches, seqs)
	}
	return src.times, batches
}

// timedSource notes the fake clock's time whenever records are read, which
// the pacer does just before it sends them.
type timedSource struct {
	Slice
	clock *fakeClock
	times []time.Duration
}

func (s *timedSource) Records(i, j int) ([]model.Record, error) {
	s.times = append(s.times, s.clock.Now().Sub(time.Unix(0, 0)))
	return s.Slice.Records(i, j)
}

func TestPacerSchedule(t *testing.T) {
	tests := []struct {
		name string
		ms   []int64
		opts pacerCase
		due  []time.Duration
	}{
		{"recorded offsets", []int64{0, 100, 250, 1000}, pacerCase{}, ms(0, 100, 250, 1000)},
		{"speed 2", []int64{0, 100, 250, 1000}, pacerCase{PacerOptions: PacerOptions{Speed: 2}}, ms(0, 50, 125, 500)},
		{"idle cap", []int64{0, 100, 60_100, 60_200}, pacerCase{idleCap: 2 * time.Second}, ms(0, 100, 2100, 2200)},
		{"no time keeps the pace", []int64{0, -1, 300, -1}, pacerCase{}, ms(0, 0, 300, 300)},
		{"clock going back is no wait", []int64{500, 200, 700}, pacerCase{}, ms(0, 0, 200)},
		{"from the third record", []int64{0, 100, 250, 1000}, pacerCase{PacerOptions: PacerOptions{From: 2}}, ms(0, 150, 900)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			times, batches := play(t, recsAt(tt.ms...), tt.opts)
			var got []time.Duration
			for i, b := range batches {
				for range b {
					got = append(got, times[i])
				}
			}
			if tt.opts.From > 0 {
				got = got[tt.opts.From-1:] // the records before From come at once, first
			}
			if !slices.Equal(got, tt.due) {
				t.Errorf("sent at %v, want %v", got, tt.due)
			}
		})
	}
}

func TestPacerRunBatchesDueRecords(t *testing.T) {
	_, batches := play(t, recsAt(0, 0, 40, 40, 40, 90), pacerCase{})
	want := [][]uint64{{1, 2}, {3, 4, 5}, {6}}
	if len(batches) != len(want) {
		t.Fatalf("batches %v", batches)
	}
	for i := range want {
		if len(batches[i]) != len(want[i]) || batches[i][0] != want[i][0] {
			t.Fatalf("batches %v, want %v", batches, want)
		}
	}
}

func TestPacerRunWaitsTheScheduledTime(t *testing.T) {
	clock := &fakeClock{now: time.Unix(0, 0)}
	recs := recsAt(0, 1500, 4000)
	p := NewPacer(Slice(recs), NewSchedule(Slice(recs), ScheduleOptions{}), PacerOptions{Clock: clock, Speed: 2})
	out := make(chan []model.Record, 3)
	if err := p.Run(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	if got := clock.Now().Sub(time.Unix(0, 0)); got != 2*time.Second {
		t.Fatalf("played in %v, want 2s", got)
	}
}

func TestPacerStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	recs := recsAt(0, 60_000)
	p := NewPacer(Slice(recs), NewSchedule(Slice(recs), ScheduleOptions{}), PacerOptions{}) // real clock: the second record is a minute away
	out := make(chan []model.Record, 2)
	done := make(chan error)
	go func() { done <- p.Run(ctx, out) }()
	<-out
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}
