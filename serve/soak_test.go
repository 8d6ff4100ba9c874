package serve

// The soak: agentwatch serve under a minute of load, in one process on
// loopback. It runs only when AGENTWATCH_SOAK=1 is set
// (scripts/soak.sh sets it), so the README's test command stays fast.

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/window"
)

// The soak's load and its bounds.
const (
	// soakEvents are appended to the served log at soakRate a second:
	// a minute of a busy agent.
	soakEvents = 60_000
	soakRate   = 1000
	// soakViewers read the screen all along; one more never reads.
	soakViewers = 20
	// soakCatchUp is how long after the last append every reading viewer
	// has to show the log's last step, and the stalled one to be gone.
	soakCatchUp = 30 * time.Second
	// soakStall is how long the server waits on a viewer whose terminal
	// takes nothing before it drops it (Config.StallTimeout).
	soakStall = 15 * time.Second
)

// Twenty viewers watch a log that grows by a thousand events a second
// for a minute while the OTLP receiver, in the same process, takes a
// thousand requests from four exporters; a twenty-first viewer opens a
// terminal and never reads it. At the end every reading viewer is still
// connected and shows the log's last step, the server's log holds every
// appended record, in order, the receiver took every span, the stalled
// viewer has been dropped, and what the load holds in the heap at the
// end is within soakGrowth of what it held soakSample in.
func TestSoak(t *testing.T) {
	if os.Getenv("AGENTWATCH_SOAK") != "1" {
		t.Skip("the soak takes minutes: AGENTWATCH_SOAK=1 runs it (scripts/soak.sh)")
	}
	// Each screen trims its fold once it holds twice the items its window
	// keeps: at window.ScreenKeep, 4,000 items, which this log reaches
	// 52 s in, so a screen's memory would rise all minute long by design,
	// and fall by half then. A small window is full within a second and
	// saws little; what grows after that grows with the log, whatever the
	// window.
	keep := window.ScreenKeep
	window.ScreenKeep = fold.Keep{Items: 32, Content: 8, Skeletons: 32, Tombstones: fold.TombstonesRecent}
	t.Cleanup(func() { window.ScreenKeep = keep })
	// The hub's window likewise: at 16,384 records it fills 16 s in, so
	// what the hub holds rises until then by design. A window of 4,096
	// records is full 4 s in; the hub's fold keeps what a screen keeps.
	hubLimit, hubKept := hubWindow, hubKeep
	hubWindow, hubKeep = windowLimit{records: 4096, bytes: 2 << 20}, window.ScreenKeep
	t.Cleanup(func() { hubWindow, hubKeep = hubLimit, hubKept })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	script := writeSoakScript(t, dir)
	t.Logf("the log: %d events in %d steps, appended at %d a second", script.records, script.steps, soakRate)
	logPath := filepath.Join(dir, "run.jsonl")
	appender := newSoakAppender(t, script.path, logPath)
	appender.appendLines(soakRate / 10) // a head to tell the log by

	opts := &app.Options{Layout: "auto", Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	show, err := OpenShow(ctx, app.New(opts), []string{logPath}, ShowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The default stall timeout, a minute, is longer than the soak gives
	// the stalled viewer to be dropped.
	ts := startShow(t, show, Config{StallTimeout: soakStall}, nil)
	hub := countHub(ctx, show.(*liveShow).hub)
	viewers := soakViewersOf(t, ts)
	stalled := ts.stall(t, 120, 40)
	telemetry := startSoakOTLP(t)

	mem := sampleHeap(t, soakSample)
	start := time.Now()
	telemetry.send(t, soakEvents/soakRate*time.Second)
	appender.run(ctx, soakRate)
	ended := time.Now()
	t.Logf("appended %d events in %s", appender.lines, ended.Sub(start).Round(time.Millisecond))
	samples := mem.stop()

	deadline := ended.Add(soakCatchUp)
	last := stepOf(script.steps, script.steps)
	shown := true
	for i, v := range viewers {
		if !v.showsBy(last, deadline) {
			shown = false
			t.Errorf("viewer %d did not show %q within %s of the last append; it shows:\n%s", i+1, last, soakCatchUp, v.screen())
		}
	}
	if shown {
		t.Logf("every reading viewer showed %q %s after the last append", last, time.Since(ended).Round(time.Millisecond))
	}
	for i, v := range viewers {
		select {
		case <-v.ended:
			t.Errorf("viewer %d, which read all along, was dropped", i+1)
		default:
		}
	}
	got := hub.waitFor(script.records, deadline)
	t.Logf("the server's log holds %d records (%d out of order, %d unreadable)", got.records, got.gaps, got.unreadable)
	if got.records != script.records || got.gaps != 0 || got.unreadable != 0 {
		t.Errorf("the server's log holds %d records of the %d appended (%d out of order, %d unreadable)",
			got.records, script.records, got.gaps, got.unreadable)
	}
	telemetry.check(t)
	select {
	case <-stalled.ended:
		t.Logf("the stalled viewer was dropped %s after the last append", time.Since(ended).Round(time.Millisecond))
	case <-time.After(time.Until(deadline)):
		t.Errorf("the viewer that never read is still connected %s after the last append: serve does not drop it", soakCatchUp)
	}
	samples.check(t)
}

// soakViewersOf connects soakViewers viewers to ts, each with a
// 120×40 terminal that keeps no scrollback, and waits until each shows
// the live log.
func soakViewersOf(t *testing.T, ts *testServer) []*testViewer {
	t.Helper()
	viewers := make([]*testViewer, soakViewers)
	for i := range viewers {
		viewers[i] = ts.view(t, ts.allowed, 119, 40)
		viewers[i].forgetScrolledLines()
	}
	for _, v := range viewers {
		v.resize(120, 40) // a size of its own: the screen is drawn anew
		v.waitFor("● LIVE", "q quit")
	}
	return viewers
}

// soakScript is the log the soak appends, written out in full beside it,
// and what folding all of it gives.
type soakScript struct {
	path           string
	records, steps int
}

// writeSoakScript writes soakEvents realistic events (runs with reasoning,
// text deltas and tool calls) to a file in dir, and folds them once to
// know what the viewers must end on. The events stay on disk, so they
// are not in the heap the soak measures.
func writeSoakScript(t *testing.T, dir string) soakScript {
	t.Helper()
	log := loggen.Generate(soakEvents, 29)
	s := soakScript{path: filepath.Join(dir, "script.jsonl")}
	if err := os.WriteFile(s.path, log, 0o600); err != nil {
		t.Fatal(err)
	}
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	threads := fold.NewThreads(fold.Options{})
	threads.Apply(s.path, recs...)
	if threads.Len() != 1 {
		t.Fatalf("the script has %d threads, want 1", threads.Len())
	}
	s.records, s.steps = len(recs), threads.List()[0].Fold.StepCount()
	return s
}

// soakAppender copies a script's lines to the end of a log, whole lines
// at a time, as an agent writes its log.
type soakAppender struct {
	t      *testing.T
	script *bufio.Reader
	log    *os.File
	lines  int
}

// newSoakAppender opens script to read and logPath to append to (made
// empty); both close when the test ends.
func newSoakAppender(t *testing.T, script, logPath string) *soakAppender {
	t.Helper()
	in, err := os.Open(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return &soakAppender{t: t, script: bufio.NewReaderSize(in, 1<<20), log: out}
}

// appendLines appends the script's next n lines in one write and
// reports whether any were left to append.
func (a *soakAppender) appendLines(n int) bool {
	var b bytes.Buffer
	for range n {
		line, err := a.script.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			a.t.Fatal(err)
		}
		b.Write(line)
		a.lines++
	}
	if b.Len() == 0 {
		return false
	}
	if _, err := a.log.Write(b.Bytes()); err != nil {
		a.t.Fatal(err)
	}
	return true
}

// run appends the rest of the script at rate lines a second, every
// 10 ms what is due by then (so a late tick catches up), until the
// script ends or ctx does.
func (a *soakAppender) run(ctx context.Context, rate int) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	start, from := time.Now(), a.lines
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		due := from + int(time.Since(start).Seconds()*float64(rate))
		if due > a.lines && !a.appendLines(due-a.lines) {
			return
		}
	}
}
