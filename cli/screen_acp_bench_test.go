package cli

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
)

// BenchmarkRecordingProcess opens an ACP recording of one turn of 100,000
// tool calls, each with a message (300,000 lines, as acp --record writes
// them; internal/testkit/hostile), on the screen, `agentwatch session.jsonl` in a
// 160×48 pseudo-terminal, and then replays it, `agentwatch replay
// session.jsonl`, seeking to its end. It reports for each the first frame
// (review-first-frame-ms, with the reading's progress shown, which the
// benchmark requires; replay-first-frame-ms), review-read-s (the
// recording read to its end) and the peak resident memory against the
// file's size (review-peak/file, replay-peak/file).
//
//	go test ./cli/ -run '^$' -bench RecordingProcess -benchtime 1x
func BenchmarkRecordingProcess(b *testing.B) {
	bin := agentwatchBinary(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	size := writeRecording(b, path, 100_000)
	for b.Loop() {
		s := startScreen(b, bin, dir, b.TempDir(), 160, 48, filepath.Base(path))
		reviewFirst := s.firstFrame()
		s.waitFor("the reading's progress", 30*time.Second, func(sc string) bool {
			return strings.Contains(sc, "reading ")
		})
		read := s.waitFor("the recording read to its end", 2*time.Minute, func(sc string) bool {
			return readToEnd(sc) && strings.Contains(sc, "step 100000 of 100000")
		})
		reviewPeak := s.peakRSS()
		s.quit()

		r := startScreen(b, bin, dir, b.TempDir(), 160, 48, "replay", filepath.Base(path))
		replayFirst := r.firstFrame()
		all := "/300003"
		r.waitFor("the recording indexed", 2*time.Minute, func(sc string) bool {
			return strings.Contains(sc, all) && !strings.Contains(sc, "indexing")
		})
		io.WriteString(r.tty, "\x1b[F") // End
		r.waitFor("the last event", time.Minute, func(sc string) bool {
			return strings.Contains(sc, all) && atLastEvent(sc)
		})
		replayPeak := r.peakRSS()
		r.quit()

		b.ReportMetric(float64(reviewFirst.Milliseconds()), "review-first-frame-ms")
		b.ReportMetric(read.Seconds(), "review-read-s")
		b.ReportMetric(float64(reviewPeak)/float64(size), "review-peak/file")
		b.ReportMetric(float64(replayFirst.Milliseconds()), "replay-first-frame-ms")
		b.ReportMetric(float64(replayPeak)/float64(size), "replay-peak/file")
		b.ReportMetric(float64(size)/1e6, "file-MB")
	}
}

// writeRecording writes an ACP recording of one turn of n tool calls to
// path and returns its size.
func writeRecording(b *testing.B, path string, n int) int64 {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := hostile.ACPTurn(w, 0, n); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	return st.Size()
}
