package sources

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/procmem"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// bigLogEvents is how many events make a generated log of about 100 MB
// (loggen writes about 180 bytes an event).
const bigLogEvents = 555_000

// childEnv names the log TestIndexChild indexes when it is set.
const childEnv = "AGENTWATCH_INDEX_CHILD"

// writeBigLog generates the 100 MB log into a file of its own.
func writeBigLog(b *testing.B) (path string, size int64) {
	b.Helper()
	path = filepath.Join(b.TempDir(), "big.jsonl")
	data := loggen.Generate(bigLogEvents, 42)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	return path, int64(len(data))
}

// indexFile indexes the log at path to its end.
func indexFile(tb testing.TB, path string) Index {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	x, err := NewIndexer(f).Next(0)
	if err != io.EOF {
		tb.Fatalf("indexing %s: %v", path, err)
	}
	return x
}

// BenchmarkIndex100MB indexes a generated 100 MB log file and reports the
// speed, the index's own size, and the peak resident memory of a process
// that does nothing but index the file (TestIndexChild), against the
// file's size: the budget is 1.5×. It also reports how soon the
// first 1,000 records are indexed and decoded: a first screen.
func BenchmarkIndex100MB(b *testing.B) {
	path, size := writeBigLog(b)
	b.SetBytes(size)
	var x Index
	for b.Loop() {
		x = indexFile(b, path)
	}
	secs := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(x.Len())/secs, "events/s")
	b.ReportMetric(float64(x.Len()), "events")
	b.ReportMetric(float64(x.Footprint())/float64(x.Len()), "index-B/event")

	peak := childPeak(b, path)
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(peak)/float64(size), "peak-RSS/file")

	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	first, err := NewIndexer(f).Next(1000)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := first.Records(f, 0, first.Len()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "first-1000-ms")
}

// childPeak runs this test binary again, indexing only the log at path,
// and returns its peak resident memory: generating the log, and the
// benchmark's own heap, do not count.
func childPeak(b *testing.B, path string) int64 {
	cmd := exec.Command(os.Args[0], "-test.run=^TestIndexChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "VmHWM-bytes "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatalf("child reported no peak:\n%s", out)
	return 0
}

// TestIndexChild is the child process of BenchmarkIndex100MB; it does
// nothing unless the environment names a log. It indexes the log and
// prints its peak resident set (VmHWM) in bytes.
func TestIndexChild(t *testing.T) {
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("run by BenchmarkIndex100MB")
	}
	x := indexFile(t, path)
	peak, err := procmem.Field("self", "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("VmHWM-bytes %d\n", peak)
	fmt.Printf("events %d\n", x.Len())
}

// BenchmarkIndexSeek decodes 1,000 records from a random place in the
// 100 MB log: what a seek costs once the log is indexed.
func BenchmarkIndexSeek(b *testing.B) {
	path, _ := writeBigLog(b)
	x := indexFile(b, path)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		i := rng.IntN(x.Len() - 1000)
		if _, err := x.Records(f, i, i+1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexScan compares the two ways the Indexer learns an event's
// type and time: scanEvent, and a full agui.Decode.
func BenchmarkIndexScan(b *testing.B) {
	data := loggen.Generate(100_000, 3)
	recs, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, rec := range recs {
				if _, ok := scanEvent(rec.Raw); !ok {
					b.Fatal("not scanned")
				}
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, rec := range recs {
				agui.Time(agui.Decode(rec.Raw))
			}
		}
	})
}
