package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// BenchmarkReviewProcess opens the 126 MB, 700,000-event loggen log on the
// screen as a person does, `agentwatch big.jsonl` in a 160×48 terminal (a
// pseudo-terminal, drawn by a terminal emulator), twice: first with
// nothing kept of it, then again, where that screen left off. It does so
// for the log as JSON Lines (jsonl) and as a JSON array (array: what
// --record writes, 127 MB). It reports first-frame-ms, from the start to
// the first frame (budget: under 300 ms, with the reading's progress
// shown, which the benchmark requires); read-s, from the start to the log
// read to its end (the last step shown, no progress left in the title);
// peak-rss/file, the peak resident memory once the log is read and its
// resume point kept, against the file's size (budget: 1.5×); and
// reopen-end-s, from the second open's start to the end on screen, taken
// up where the first left off (budget: under 0.3 s), never saying the
// file started over.
//
//	go test ./cli/ -run '^$' -bench ReviewProcess -benchtime 3x
func BenchmarkReviewProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	for _, form := range []string{"jsonl", "array"} {
		b.Run(form, func(b *testing.B) {
			path, size, _ := benchLog(b, b.TempDir(), 700_000)
			if form == "array" {
				path, size = asArray(b, path)
			}
			reviewProcess(b, bin, path, size)
		})
	}
}

// asArray writes the JSON Lines log at path again as a JSON array, beside
// it, and returns the array's path and size.
func asArray(b *testing.B, path string) (string, int64) {
	jsonl, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	array := loggen.ToArray(jsonl)
	path = strings.TrimSuffix(path, ".jsonl") + ".json"
	if err := os.WriteFile(path, array, 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(len(array))
}

// reviewProcess is BenchmarkReviewProcess for the log at path.
func reviewProcess(b *testing.B, bin, path string, size int64) {
	var firstFrame, read, reopen time.Duration
	var peak int64
	for b.Loop() {
		cache := b.TempDir()
		// The log is named from its folder, so that the title has room
		// for the progress after it.
		s := startScreen(b, bin, filepath.Dir(path), cache, 160, 48, filepath.Base(path))
		firstFrame += s.firstFrame()
		s.waitFor("the reading's progress", 30*time.Second, func(sc string) bool {
			return strings.Contains(sc, "reading ")
		})
		read += s.waitFor("the log read to its end", 2*time.Minute, readToEnd)
		waitForResumePoint(b, filepath.Join(cache, "agentwatch", "resume"))
		peak = max(peak, s.peakRSS())
		s.quit()

		again := startScreen(b, bin, filepath.Dir(path), cache, 160, 48, filepath.Base(path))
		reopen += again.waitFor("the log taken up", time.Minute, func(sc string) bool {
			if strings.Contains(sc, "truncated") || strings.Contains(sc, "started over") {
				b.Fatalf("the log taken up says it started over:\n%s", sc)
			}
			return strings.Contains(sc, "taken up at") && readToEnd(sc)
		})
		again.quit()
	}
	n := float64(b.N)
	b.ReportMetric(float64(firstFrame.Milliseconds())/n, "first-frame-ms")
	b.ReportMetric(read.Seconds()/n, "read-s")
	b.ReportMetric(reopen.Seconds()/n, "reopen-end-s")
	reportPeak(b, peak, size)
}

// lastStep matches the step bar once it shows the last step: "step N of N".
var lastStep = regexp.MustCompile(`step (\d+) of (\d+)`)

// readToEnd reports whether the screen shows the log read to its end: no
// progress in the title, and the last step selected.
func readToEnd(screen string) bool {
	if strings.Contains(screen, "reading ") {
		return false
	}
	m := lastStep.FindStringSubmatch(screen)
	return m != nil && m[1] == m[2]
}

// waitForResumePoint waits until dir holds a resume point: the screen keeps
// one beside it once the log is read to its end.
func waitForResumePoint(b *testing.B, dir string) {
	b.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".json") {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("no resume point in %s after a minute", dir)
}

// BenchmarkReplayProcess replays the 126 MB, 700,000-event loggen log on
// the screen, `agentwatch replay big.jsonl` in a 160×48 pseudo-terminal,
// waits for it to be indexed, seeks to its end (End) and quits. It
// reports first-frame-ms, index-s (from the start to the log indexed),
// end-s (from End to the last event on screen), and peak-rss/file, the
// peak resident memory at the end against the file's size (budget: 1.5×).
//
//	go test ./cli/ -run '^$' -bench ReplayProcess -benchtime 3x
func BenchmarkReplayProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	path, size, events := benchLog(b, b.TempDir(), 700_000)
	all := "/" + strconv.Itoa(events)
	var firstFrame, indexed, end time.Duration
	var peak int64
	for b.Loop() {
		s := startScreen(b, bin, filepath.Dir(path), b.TempDir(), 160, 48, "replay", filepath.Base(path))
		firstFrame += s.firstFrame()
		indexed += s.waitFor("the log indexed", 2*time.Minute, func(sc string) bool {
			return strings.Contains(sc, all) && !strings.Contains(sc, "indexing")
		})
		io.WriteString(s.tty, "\x1b[F") // End, as an xterm sends it
		pressed := time.Since(s.start)
		end += s.waitFor("the last event", time.Minute, func(sc string) bool {
			return strings.Contains(sc, all) && atLastEvent(sc)
		}) - pressed
		peak = max(peak, s.peakRSS())
		s.quit()
	}
	n := float64(b.N)
	b.ReportMetric(float64(firstFrame.Milliseconds())/n, "first-frame-ms")
	b.ReportMetric(indexed.Seconds()/n, "index-s")
	b.ReportMetric(end.Seconds()/n, "end-s")
	reportPeak(b, peak, size)
}

// replayAt matches the replay bar's position: "413/840" at a line's end.
var replayAt = regexp.MustCompile(`(?m) (\d+)/(\d+)\s*$`)

// atLastEvent reports whether the replay bar shows the last event.
func atLastEvent(screen string) bool {
	m := replayAt.FindStringSubmatch(screen)
	return m != nil && m[1] == m[2]
}

// reportPeak reports a peak resident memory against the file's size, when
// the system told it.
func reportPeak(b *testing.B, peak, size int64) {
	if peak > 0 {
		b.ReportMetric(float64(peak)/float64(size), "peak-rss/file")
		b.ReportMetric(float64(peak)/(1<<20), "peak-rss-MiB")
	}
}
