package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/app"
)

// trickle are events, and the line each makes --plain print ("" for none:
// a message's line comes with its end).
var trickle = []struct{ event, line string }{
	{`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`, "run r1 started"},
	{`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`, ""},
	{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"looking"}`, ""},
	{`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, "agent: looking"},
	{`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"ls"}}`, "step 1 execute pending"},
	{`{"type":"TOOL_CALL_END","toolCallId":"c1"}`, "step 1 execute running"},
	{`{"type":"TOOL_CALL_RESULT","messageId":"x1","toolCallId":"c1","content":"a b c"}`, "step 1 execute completed"},
	{`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`, "run r1 completed"},
}

// lineWaiter is an io.Writer whose test can wait for a line to appear.
type lineWaiter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
}

func newLineWaiter() *lineWaiter { return &lineWaiter{more: make(chan struct{}, 1)} }

func (w *lineWaiter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	select {
	case w.more <- struct{}{}:
	default:
	}
	return n, err
}

// wait waits until the output holds want; the deadline is a failure
// bound, not a measurement.
func (w *lineWaiter) wait(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		w.mu.Lock()
		s := w.buf.String()
		w.mu.Unlock()
		if strings.Contains(s, want) {
			return
		}
		select {
		case <-w.more:
		case <-deadline:
			t.Fatalf("never printed %q; printed so far:\n%s", want, s)
		}
	}
}

// Standard input that trickles: each event is printed before the next is
// sent (it used to wait for 512 events, or the end of the input).
func TestStdinTrickle(t *testing.T) {
	pr, pw := io.Pipe()
	out := newLineWaiter()
	done := make(chan int, 1)
	go func() { done <- Run([]string{"--plain", "-"}, pr, out, io.Discard) }()
	for _, e := range trickle {
		fmt.Fprintln(pw, e.event)
		if e.line != "" {
			out.wait(t, e.line)
		}
	}
	pw.Close()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// connect, with --record: each event of a stream that trickles is printed
// and recorded before the next is sent.
func TestConnectTrickle(t *testing.T) {
	next := make(chan string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		for ev := range next {
			fmt.Fprintf(w, "data: %s\n\n", ev)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	rec := t.TempDir() + "/run.json"
	out := newLineWaiter()
	done := make(chan int, 1)
	go func() { done <- Run([]string{"connect", srv.URL, "--plain", "--record", rec}, nil, out, io.Discard) }()
	defer func() {
		if next != nil {
			close(next) // a failed test must not leave the server waiting
		}
	}()
	for i, e := range trickle {
		next <- e.event
		if e.line != "" {
			out.wait(t, e.line)
		}
		recorded := func() int {
			b, _ := readFileIfAny(rec)
			return bytes.Count(b, []byte(`"type"`))
		}
		deadline := time.Now().Add(5 * time.Second)
		for recorded() < i+1 {
			if time.Now().After(deadline) {
				t.Fatalf("event %d printed but not recorded", i+1)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	close(next)
	next = nil
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// readFileIfAny reads a file that may not be there yet.
func readFileIfAny(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	return b, err
}

// A tailed file truncated and written again starts over: --plain says so,
// and the new content's thread is new, with nothing of the old one and no
// problem about another thread.
func TestTailTruncateRestarts(t *testing.T) {
	path := t.TempDir() + "/run.jsonl"
	old := strings.Join([]string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"old1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"make old"}}`,
	}, "\n") + "\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	out := newLineWaiter()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- follow(ctx, &app.Options{Plain: true, Stdout: out, Stderr: io.Discard}, path)
	}()
	out.wait(t, "step 1 execute pending · Running command · make old")
	fresh := strings.Join([]string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"new1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"make new"}}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r","toolCallId":"c1","content":"ok"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"new1"}`,
	}, "\n") + "\n"
	if err := os.WriteFile(path, []byte(fresh), 0o644); err != nil { // truncates, then writes
		t.Fatal(err)
	}
	out.wait(t, "run new1 completed")
	stop()
	<-done
	got := out.buf.String()
	after := got[strings.Index(got, "started over"):]
	for _, want := range []string{"run new1 started", "step 1 execute completed · Ran command · make new"} {
		if !strings.Contains(after, want) {
			t.Errorf("after the restart the output lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"problem", "old1", "step 2"} {
		if strings.Contains(after, bad) {
			t.Errorf("after the restart the output has %q:\n%s", bad, got)
		}
	}
}
