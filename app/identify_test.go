package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/sources"
)

// headCounter counts the heads an App reads, per file.
type headCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

// countHeads makes a's head reads counted.
func countHeads(a *App) *headCounter {
	c := &headCounter{counts: map[string]int{}}
	a.openHead = func(path string) (io.ReadCloser, error) {
		c.mu.Lock()
		c.counts[path]++
		c.mu.Unlock()
		return os.Open(path)
	}
	return c
}

// of is how many times path's head was read.
func (c *headCounter) of(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[path]
}

// signalWriter is a writer for --plain lines that says when every one of
// wants was written.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wants []string
	seen  chan struct{}
	said  bool
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	all := true
	for _, want := range w.wants {
		all = all && strings.Contains(w.buf.String(), want)
	}
	if all && !w.said {
		w.said = true
		close(w.seen)
	}
	return len(p), nil
}

// until waits for w to hold want.
func (w *signalWriter) until(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		w.mu.Lock()
		ok := strings.Contains(w.buf.String(), want)
		w.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q never written", want)
		}
	}
}

// A source's head is read once: identifying it reads it, and following
// it (as agentwatch FILE and agentwatch tail do) asks the Source, for an
// event log, an OTLP file of a request per line and one written out
// pretty, and each log of a folder, read to its end (--plain), followed
// or served (OpenStream, as serve opens it). The heads a folder's
// follower reads (sources.FollowFolder) are counted too: it is told what
// identifying the folder found of each file there, and reads only the
// heads of files that come later.
func TestHeadReadOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	log := `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n"
	otlpLines, err := os.ReadFile("../testdata/otlp/fleet.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bufio.NewReader(bytes.NewReader(otlpLines)).ReadLine()
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, first, "", "  "); err != nil {
		t.Fatal(err)
	}
	eventLog := write("run.jsonl", log)
	perLine := write("fleet.jsonl", string(otlpLines))
	prettyOTLP := write("pretty.json", pretty.String())
	folder := filepath.Join(dir, "logs")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	var inFolder []string
	for _, n := range []string{"a.jsonl", "b.jsonl"} {
		p := filepath.Join(folder, n)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(log, "t1", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		inFolder = append(inFolder, p)
	}
	otlpInFolder := filepath.Join(folder, "c.jsonl")
	if err := os.WriteFile(otlpInFolder, otlpLines, 0o644); err != nil {
		t.Fatal(err)
	}
	inFolder = append(inFolder, otlpInFolder)

	cases := []struct {
		name     string
		arg      string
		followed bool   // identified for tail
		plain    bool   // read to its end, not followed
		served   bool   // opened as serve opens it; want names its sources
		want     string // what says the source was read (; between parts)
		files    []string
	}{
		{"event log", eventLog, false, false, false, "run r1 started", []string{eventLog}},
		{"event log, tail", eventLog, true, false, false, "run r1 started", []string{eventLog}},
		{"OTLP per line", perLine, false, false, false, "started", []string{perLine}},
		{"OTLP pretty", prettyOTLP, false, false, false, "", []string{prettyOTLP}},
		{"OTLP pretty, tail", prettyOTLP, true, false, false, "", []string{prettyOTLP}},
		{"folder, followed", folder, false, false, false, "a.jsonl ==;b.jsonl ==;c.jsonl ==", inFolder},
		{"folder, plain", folder, false, true, false, "", inFolder},
		{"folder, served", folder, false, false, true, strings.Join(inFolder, ";"), inFolder},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := &signalWriter{wants: strings.Split(c.want, ";"), seen: make(chan struct{})}
			a := New(&Options{Plain: true, Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard})
			heads := countHeads(a)
			src, err := a.identify(c.arg, c.followed)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.served:
				err = serveUntil(a, src, strings.Split(c.want, ";"))
			case c.plain:
				err = a.View(src)
			case c.want == "":
				err = a.Follow(context.Background(), src) // reviewed: it ends by itself
			default:
				ctx, stop := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- a.Follow(ctx, src) }()
				<-out.seen
				stop()
				err = <-done
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range c.files {
				if n := heads.of(f); n != 1 {
					t.Errorf("%s: head read %d times, want once", filepath.Base(f), n)
				}
			}
		})
	}

	// A log that comes to a followed folder is looked at when it comes.
	t.Run("folder, a log that comes later", func(t *testing.T) {
		dir := t.TempDir()
		first, later := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "d.jsonl")
		if err := os.WriteFile(first, []byte(strings.ReplaceAll(log, "t1", "a.jsonl")), 0o644); err != nil {
			t.Fatal(err)
		}
		out := &signalWriter{wants: []string{"a.jsonl =="}, seen: make(chan struct{})}
		a := New(&Options{Plain: true, Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard})
		heads := countHeads(a)
		src, err := a.Identify(dir)
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- a.Follow(ctx, src) }()
		<-out.seen
		if err := os.WriteFile(later, []byte(strings.ReplaceAll(log, "t1", "d.jsonl")), 0o644); err != nil {
			t.Fatal(err)
		}
		out.until(t, "d.jsonl ==")
		stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := heads.of(first); n != 1 {
			t.Errorf("a.jsonl: head read %d times, want once", n)
		}
		if heads.of(later) == 0 {
			t.Error("d.jsonl was followed without a look at its head")
		}
	})
}

// serveUntil opens src as serve does (OpenStream) and reads it until
// each of names has sent records, then stops it and reads both channels
// to their end.
func serveUntil(a *App, src *Source, names []string) error {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	st, err := a.OpenStream(ctx, src, sources.ConnectOptions{})
	if err != nil {
		return err
	}
	go func() {
		for range st.Status {
		}
	}()
	left := map[string]bool{}
	for _, n := range names {
		left[n] = true
	}
	deadline := time.After(20 * time.Second)
	for len(left) > 0 {
		select {
		case b, ok := <-st.Batches:
			if !ok {
				return fmt.Errorf("the stream ended before %v sent records", left)
			}
			if len(b.Records) > 0 {
				delete(left, b.Source)
			}
		case <-deadline:
			return fmt.Errorf("%v sent no records", left)
		}
	}
	stop()
	for range st.Batches {
	}
	return nil
}

// The screen of a big log decides whether it keeps where it left off
// from what identifying the log learned, without reading its head again.
func TestResumeAsksTheSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := smallResume(t)
	heads := countHeads(a)
	src, err := a.IdentifyFollowed(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.resumeFor(src) == nil {
		t.Fatal("no resume view for an event log")
	}
	if n := heads.of(path); n != 1 {
		t.Errorf("head read %d times, want once", n)
	}
}
