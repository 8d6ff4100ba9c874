package sources

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// tailSeqEvent is one JSONL event line carrying n in its delta.
func tailSeqEvent(n int) string {
	return fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg_live","delta":"seq %07d of the answer"}`+"\n", n)
}

var tailSeqMark = []byte(`"delta":"seq `)

// tailSeqOf returns the sequence number in a record made from tailSeqEvent, or -1.
func tailSeqOf(rec model.Record) int {
	i := bytes.Index(rec.Raw, tailSeqMark)
	if i < 0 {
		return -1
	}
	d := rec.Raw[i+len(tailSeqMark):]
	if len(d) < 7 {
		return -1
	}
	n, err := strconv.Atoi(string(d[:7]))
	if err != nil {
		return -1
	}
	return n
}

// drainTailEvents reads the status channel so it never matters to the tailer.
func drainTailEvents(ev <-chan TailEvent) {
	go func() {
		for range ev {
		}
	}()
}

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// TestTailLatency measures the time from an append to a tailed file to the
// batch holding that event arriving on Tail's channel, over 1,000 appends
// about 2 ms apart. Budget: p99 < 50 ms on a quiet machine; the assertion is
// loose (250 ms) because shared CI machines are noisy.
//
//	go test ./sources/ -run TailLatency -v
func TestTailLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("latency measurement skipped with -short")
	}
	const (
		appends = 1000
		spacing = 2 * time.Millisecond
	)
	path := filepath.Join(t.TempDir(), "live.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, ev := Tail(ctx, path, TailOptions{})
	drainTailEvents(ev)

	// The writer appends one line every ~2 ms, whatever the reader does, so
	// several appends can share a batch; write and arrival times are kept per
	// sequence number and paired at the end.
	sent := make([]time.Time, appends+1)
	werr := make(chan error, 1)
	go func() {
		next := time.Now()
		for n := 1; n <= appends; n++ {
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
			line := tailSeqEvent(n)
			sent[n] = time.Now()
			if _, err := f.WriteString(line); err != nil {
				werr <- err
				return
			}
			next = sent[n].Add(spacing)
		}
		werr <- nil
	}()

	got := make([]time.Time, appends+1)
	received := 0
	timeout := time.After(60 * time.Second)
	for received < appends {
		select {
		case batch, ok := <-out:
			if !ok {
				t.Fatal("tail channel closed")
			}
			now := time.Now()
			for _, rec := range batch {
				s := tailSeqOf(rec)
				if s < 1 || s > appends {
					t.Fatalf("unexpected record %d: %s", rec.Seq, rec.Raw)
				}
				if !got[s].IsZero() {
					t.Fatalf("event %d received twice", s)
				}
				got[s] = now
				received++
			}
		case <-timeout:
			t.Fatalf("only %d of %d events received within 60 s", received, appends)
		}
	}
	if err := <-werr; err != nil { // also orders the writer's sent[] before the reads below
		t.Fatal(err)
	}
	lat := make([]time.Duration, 0, appends)
	for n := 1; n <= appends; n++ {
		lat = append(lat, got[n].Sub(sent[n]))
	}

	slices.Sort(lat)
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	p50, p90, p99, worst := pct(lat, 0.50), pct(lat, 0.90), pct(lat, 0.99), lat[len(lat)-1]
	t.Logf("append→received latency over %d appends ~%v apart: p50 %v  p90 %v  p99 %v  max %v  mean %v",
		appends, spacing, p50.Round(10*time.Microsecond), p90.Round(10*time.Microsecond),
		p99.Round(10*time.Microsecond), worst.Round(10*time.Microsecond),
		(sum / time.Duration(len(lat))).Round(10*time.Microsecond))
	if p99 > 250*time.Millisecond {
		t.Errorf("p99 latency %v > 250 ms (budget 50 ms on a quiet machine)", p99)
	} else if p99 > 50*time.Millisecond {
		t.Logf("note: p99 %v is over the 50 ms budget (noisy machine?)", p99)
	}
}

// BenchmarkTailThroughput tails a file that grows at 50,000 events/s (500
// lines per write every 10 ms) for 2 s, checks that every event arrives, and
// reports the rate received and the lag at the end (last write to last
// record received). Each b.N iteration is one fresh 2 s run.
//
//	go test ./sources/ -run '^$' -bench TailThroughput -benchtime 1x -v
func BenchmarkTailThroughput(b *testing.B) {
	const (
		perWrite = 500
		every    = 10 * time.Millisecond
		runFor   = 2 * time.Second
		writes   = int(runFor / every) // 200 writes
		total    = perWrite * writes   // 100,000 events
	)
	// Prebuild the chunks so the writer's pace is not disturbed by formatting.
	chunks := make([][]byte, writes)
	for w := range chunks {
		var buf bytes.Buffer
		for i := range perWrite {
			buf.WriteString(tailSeqEvent(w*perWrite + i + 1))
		}
		chunks[w] = buf.Bytes()
	}

	var sumRate, sumLag float64
	var maxLag time.Duration
	runs := 0
	b.ResetTimer()
	for b.Loop() {
		rate, lag := tailThroughputRun(b, chunks, every, total)
		sumRate += rate
		sumLag += lag.Seconds()
		maxLag = max(maxLag, lag)
		runs++
		b.Logf("run %d: %d events received, %.0f events/s, lag at end %v", runs, total, rate, lag.Round(10*time.Microsecond))
	}
	b.ReportMetric(sumRate/float64(runs), "events/s")
	b.ReportMetric(sumLag/float64(runs)*1e3, "lag-ms")
	b.ReportMetric(float64(maxLag.Microseconds())/1e3, "max-lag-ms")
}

// tailThroughputRun runs one writer + tail over a fresh file and returns the
// events per second received (first write to last record) and the lag at the end.
func tailThroughputRun(b *testing.B, chunks [][]byte, every time.Duration, total int) (float64, time.Duration) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "live.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, ev := Tail(ctx, path, TailOptions{})
	drainTailEvents(ev)

	type result struct {
		first, last time.Time
		err         error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		tick := time.NewTicker(every)
		defer tick.Stop()
		r.first = time.Now()
		for i, c := range chunks {
			if i > 0 {
				<-tick.C
			}
			if _, err := f.Write(c); err != nil {
				r.err = err
				break
			}
			r.last = time.Now()
		}
		done <- r
	}()

	seen := make([]bool, total+1)
	got := 0
	var lastRecv time.Time
	timeout := time.After(30 * time.Second)
	for got < total {
		select {
		case batch, ok := <-out:
			if !ok {
				b.Fatal("tail channel closed")
			}
			for _, rec := range batch {
				s := tailSeqOf(rec)
				if s < 1 || s > total {
					b.Fatalf("unexpected record %d: %s", rec.Seq, rec.Raw)
				}
				if seen[s] {
					b.Fatalf("event %d received twice", s)
				}
				seen[s] = true
				got++
			}
			lastRecv = time.Now()
		case <-timeout:
			b.Fatalf("only %d of %d events received within 30 s", got, total)
		}
	}
	w := <-done
	if w.err != nil {
		b.Fatal(w.err)
	}
	lag := lastRecv.Sub(w.last)
	if lag < 0 {
		lag = 0 // the final write's records were consumed before its time was taken
	}
	if lag >= time.Second {
		b.Errorf("reader fell behind: last record %v after the last write (want < 1 s)", lag)
	}
	// Nothing more may arrive: every event is already accounted for.
	select {
	case batch := <-out:
		if len(batch) > 0 {
			b.Errorf("%d extra records after all %d events", len(batch), total)
		}
	case <-time.After(50 * time.Millisecond):
	}
	return float64(total) / lastRecv.Sub(w.first).Seconds(), lag
}
