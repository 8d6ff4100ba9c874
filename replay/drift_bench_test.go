package replay

import (
	"fmt"
	"testing"
	"time"

	"bytes"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// minuteLog is a 60-second recording: a text message streamed in 600
// deltas, one every 100 ms.
func minuteLog(b *testing.B) []model.Record {
	var buf bytes.Buffer
	t0 := int64(1_700_000_000_000)
	fmt.Fprintf(&buf, `{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":%d}`+"\n", t0)
	fmt.Fprintf(&buf, `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","timestamp":%d}`+"\n", t0)
	for i := 1; i <= 599; i++ {
		fmt.Fprintf(&buf, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"word ","timestamp":%d}`+"\n", t0+int64(i)*100)
	}
	fmt.Fprintf(&buf, `{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":%d}`+"\n", t0+60_000)
	recs, err := sources.ReadAll(&buf)
	if err != nil {
		b.Fatal(err)
	}
	return recs
}

// BenchmarkPacingDrift plays a 60-second recording at 1× on the real clock,
// the way the screen does (sleep until the next record is due, never less
// than a frame), and reports how far the end drifts from 60 s (drift-%) and
// the latest any record was played (max-late-ms). Run it alone, it takes a
// minute per iteration:
//
//	go test ./replay/ -run '^$' -bench PacingDrift -benchtime 1x
func BenchmarkPacingDrift(b *testing.B) {
	recs := minuteLog(b)
	for b.Loop() {
		tl, err := BuildTimeline(Slice(recs), fold.Options{}, 0)
		if err != nil {
			b.Fatal(err)
		}
		sched := NewSchedule(Slice(recs), ScheduleOptions{}) // no idle cap: gaps are 100 ms anyway
		p := NewPlayer(Slice(recs), tl, sched, PlayerOptions{})
		start := time.Now()
		if err := p.Play(); err != nil {
			b.Fatal(err)
		}
		var late time.Duration
		for p.Playing() {
			before := p.Pos()
			wait, _, err := p.Advance()
			if err != nil {
				b.Fatal(err)
			}
			now := time.Since(start)
			for i := before; i < p.Pos(); i++ {
				late = max(late, now-sched.At(i))
			}
			if p.Playing() {
				time.Sleep(max(wait, 16*time.Millisecond))
			}
		}
		wall := time.Since(start)
		b.ReportMetric(100*float64(wall-sched.Total())/float64(sched.Total()), "drift-%")
		b.ReportMetric(float64(late.Microseconds())/1000, "max-late-ms")
	}
}
