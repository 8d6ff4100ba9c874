package compact_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// BenchmarkCompact compacts a realistic generated log (20,000 events) three
// ways: the reference alone, Fixed alone, and Compact with the fold as judge
// (as `agentwatch compact` runs it: two folds more).
func BenchmarkCompact(b *testing.B) {
	in := readLog(b, loggen.Generate(20000, 1))
	b.Run("Reference", func(b *testing.B) {
		for b.Loop() {
			compact.Reference(in)
		}
		b.ReportMetric(float64(len(in))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("Fixed", func(b *testing.B) {
		for b.Loop() {
			compact.Fixed(in)
		}
		b.ReportMetric(float64(len(in))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("Compact", func(b *testing.B) {
		for b.Loop() {
			if _, err := compact.Compact(in, equiv.Against(in)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(in))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
}
