package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// BenchmarkACPSessionProcess runs `agentwatch acp` on the scripted agent in
// a 160×48 pseudo-terminal, asking it for 200,000 tool calls in one turn
// (each with a message: 600,000 updates as fast as the agent sends them).
// It reports the resident memory once 50,000 steps are on screen and the
// most it reached by the end of the turn, in MiB and as a ratio (growth):
// a session sheds what the screen no longer shows, so the ratio stays
// near 1 however long the turn.
//
//	go test ./cli/ -run '^$' -bench ACPSessionProcess -benchtime 1x
func BenchmarkACPSessionProcess(b *testing.B) {
	bin, agent := agentwatchBinary(b), acptest.Build(b)
	const total, early = 200_000, 50_000
	bar := regexp.MustCompile(`step (\d+) of (\d+)`)
	stepsOn := func(screen string) int {
		m := bar.FindStringSubmatch(screen)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[2])
		return n
	}
	for b.Loop() {
		dir := b.TempDir()
		s := startScreen(b, bin, dir, b.TempDir(), 160, 48,
			"acp", "--cwd", dir, "--stderr-log", dir+"/agent.log", "--prompt", "calls "+strconv.Itoa(total), "--", agent)
		s.waitFor("50,000 steps", 2*time.Minute, func(sc string) bool { return stepsOn(sc) >= early })
		atEarly := rssOf(s.cmd.Process.Pid)
		took := s.waitFor("the turn's end", 5*time.Minute, func(sc string) bool { return stepsOn(sc) == total && strings.Contains(sc, "turn ended: end_turn") })
		most := s.peakRSS()
		s.quitWith("\x03")
		b.ReportMetric(float64(atEarly)/(1<<20), "MiB-at-50k")
		b.ReportMetric(float64(most)/(1<<20), "MiB-peak")
		b.ReportMetric(float64(most)/float64(atEarly), "growth")
		b.ReportMetric(took.Seconds(), "s-turn")
	}
}
