package replay

import (
	"context"
	"errors"
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
func play(t *testing.T, recs []model.Record, opts PacerOptions) (times []time.Duration, batches [][]uint64) {
	t.Helper()
	clock := &fakeClock{now: time.Unix(0, 0)}
	opts.Clock = clock
	p := NewPacer(recs, opts)
	out := make(chan []model.Record, len(recs)+1)
	if err := p.Run(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	close(out)
	for b := range out {
		times = append(times, clock.Now().Sub(time.Unix(0, 0))) // clock is at the last wait
		var seqs []uint64
		for _, r := range b {
			seqs = append(seqs, r.Seq)
		}
		batches = append(batches, seqs)
	}
	return times, batches
}

func TestPacerSchedule(t *testing.T) {
	tests := []struct {
		name string
		ms   []int64
		opts PacerOptions
		due  []time.Duration
	}{
		{"recorded offsets", []int64{0, 100, 250, 1000}, PacerOptions{}, []time.Duration{0, 100 * time.Millisecond, 250 * time.Millisecond, time.Second}},
		{"speed 2", []int64{0, 100, 250, 1000}, PacerOptions{Speed: 2}, []time.Duration{0, 50 * time.Millisecond, 125 * time.Millisecond, 500 * time.Millisecond}},
		{"idle cap", []int64{0, 100, 60_100, 60_200}, PacerOptions{IdleCap: 2 * time.Second}, []time.Duration{0, 100 * time.Millisecond, 2100 * time.Millisecond, 2200 * time.Millisecond}},
		{"no time keeps the pace", []int64{0, -1, 300, -1}, PacerOptions{}, []time.Duration{0, 0, 300 * time.Millisecond, 300 * time.Millisecond}},
		{"clock going back is no wait", []int64{500, 200, 700}, PacerOptions{}, []time.Duration{0, 0, 500 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPacer(recsAt(tt.ms...), tt.opts)
			for i, want := range tt.due {
				if got := p.Due(i); got != want {
					t.Errorf("record %d due at %v, want %v", i, got, want)
				}
			}
			if p.Duration() != tt.due[len(tt.due)-1] {
				t.Errorf("duration %v", p.Duration())
			}
		})
	}
}

func TestPacerRunBatchesDueRecords(t *testing.T) {
	_, batches := play(t, recsAt(0, 0, 40, 40, 40, 90), PacerOptions{})
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
	p := NewPacer(recsAt(0, 1500, 4000), PacerOptions{Clock: clock, Speed: 2})
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
	p := NewPacer(recsAt(0, 60_000), PacerOptions{}) // real clock: the second record is a minute away
	out := make(chan []model.Record, 2)
	done := make(chan error)
	go func() { done <- p.Run(ctx, out) }()
	<-out
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}
