package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/monkey"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
)

var (
	monkeySeed   = flag.Uint64("monkey.seed", 1, "the seed of the monkey tests' inputs")
	monkeyInputs = flag.Int("monkey.n", 600, "how many random inputs each monkey test sends")
)

// monkeyCase is a way agentwatch is run, with what feeds it meanwhile.
type monkeyCase struct {
	name string
	// start returns the arguments, and what to run beside the screen
	// until stop closes (nil for nothing).
	start func(t *testing.T, dir string) (args []string, feed func(stop <-chan struct{}))
	// ready is what the first frame shows once the source is there.
	ready string
}

// No input ends the program, nor shows the crash page, in any way
// agentwatch is run: the real binary in a pseudo-terminal, typed at,
// clicked, dragged, scrolled, pasted into and resized at random while its
// source sends. A failure names the seed (-monkey.seed reruns it).
func TestMonkeyProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := agentwatchBinary(t)
	cases := []monkeyCase{
		{name: "demo", ready: "agent computer", start: func(*testing.T, string) ([]string, func(<-chan struct{})) { return nil, nil }},
		{name: "review", ready: "step ", start: func(t *testing.T, dir string) ([]string, func(<-chan struct{})) {
			return []string{writeLog(t, dir, "run.jsonl", loggen.Generate(3000, 1))}, nil
		}},
		{name: "tail", ready: "agent computer", start: monkeyTail},
		{name: "folder", ready: "threads", start: monkeyFolder},
		{name: "replay", ready: "agent computer", start: func(t *testing.T, dir string) ([]string, func(<-chan struct{})) {
			return []string{"replay", "--speed", "16", writeLog(t, dir, "run.jsonl", loggen.GenerateThreads(3000, 3, 5))}, nil
		}},
		{name: "connect", ready: "agent computer", start: monkeyConnect},
		{name: "otlp", ready: "agent computer", start: monkeyOTLP},
		{name: "acp", ready: "ready", start: func(t *testing.T, dir string) ([]string, func(<-chan struct{})) {
			return []string{"acp", "--cwd", dir, "--", acptest.Build(t)}, nil
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args, feed := c.start(t, dir)
			cache := filepath.Join(dir, "cache")
			s := startScreen(t, bin, dir, cache, 120, 40, args...)
			s.waitFor(c.ready, 30*time.Second, func(sc string) bool { return strings.Contains(sc, c.ready) })
			stop := make(chan struct{})
			var fed sync.WaitGroup
			if feed != nil {
				fed.Go(func() { feed(stop) })
			}
			stopped := sync.OnceFunc(func() {
				close(stop)
				fed.Wait()
			})
			defer stopped()
			seed := *monkeySeed + uint64(i)*7919
			monkeyProcess(t, s, seed, *monkeyInputs)
			stopped()
			if crashes, _ := filepath.Glob(filepath.Join(cache, "agentwatch", "crashes", "*")); len(crashes) > 0 {
				b, _ := os.ReadFile(crashes[0])
				t.Fatalf("seed %d: the screen crashed:\n%s", seed, b)
			}
			s.quitWith("\x03")
		})
	}
}

// monkeyProcess types n random inputs from seed at the program, resizing
// its terminal now and then, and fails as soon as it ends or shows the
// crash page.
func monkeyProcess(t *testing.T, s *screenProc, seed uint64, n int) {
	t.Helper()
	exited := make(chan struct{})
	go func() {
		<-s.ended // the terminal's output closes when the program ends
		close(exited)
	}()
	g := monkey.New(seed, 120, 40)
	// The emulator only grows: it draws what a terminal of the largest
	// size so far shows (shrinking it while it draws trips it up).
	termW, termH := 120, 40
	for i := range n {
		msg := g.Msg()
		if size, ok := msg.(tea.WindowSizeMsg); ok {
			w, h := max(size.Width, 2), max(size.Height, 2)
			if w > termW || h > termH {
				termW, termH = max(w, termW), max(h, termH)
				s.mu.Lock()
				s.term.Resize(termW, termH)
				s.mu.Unlock()
			}
			if err := pty.Setsize(s.tty, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)}); err != nil {
				t.Fatal(err)
			}
		} else if _, err := io.WriteString(s.tty, monkey.Encode(msg)); err != nil {
			t.Fatalf("seed %d: input %d (%T %v): the program is gone: %v", seed, i, msg, msg, err)
		}
		if i%25 == 0 || monkey.Alone(msg) {
			// Let the program take what was typed, as hands leave it time.
			time.Sleep(5 * time.Millisecond)
		}
		select {
		case <-exited:
			t.Fatalf("seed %d: input %d (%T %v) ended the program; the screen was:\n%s", seed, i, msg, msg, s.screen())
		default:
		}
		if i%50 == 0 && strings.Contains(s.screen(), "something went wrong") {
			t.Fatalf("seed %d: by input %d the screen crashed:\n%s", seed, i, s.screen())
		}
	}
	time.Sleep(200 * time.Millisecond)
	select {
	case <-exited:
		t.Fatalf("seed %d: the inputs ended the program; the screen was:\n%s", seed, s.screen())
	default:
	}
	if strings.Contains(s.screen(), "something went wrong") {
		t.Fatalf("seed %d: the screen crashed:\n%s", seed, s.screen())
	}
}

// writeLog writes data to dir/name and returns its path.
func writeLog(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// monkeyTail is a log that grows a few lines at a time.
func monkeyTail(t *testing.T, dir string) ([]string, func(<-chan struct{})) {
	lines := strings.SplitAfter(string(loggen.Generate(4000, 1)), "\n")
	path := writeLog(t, dir, "run.jsonl", []byte(strings.Join(lines[:50], "")))
	return []string{"tail", path}, func(stop <-chan struct{}) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for i := 50; i < len(lines); i += 5 {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			f.WriteString(strings.Join(lines[i:min(i+5, len(lines))], ""))
		}
	}
}

// monkeyFolder is a folder of logs that gets new ones.
func monkeyFolder(t *testing.T, dir string) ([]string, func(<-chan struct{})) {
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		writeLog(t, logs, fmt.Sprintf("t%d.jsonl", i), loggen.GenerateThreads(300, 1, int64(i+1)))
	}
	return []string{logs}, func(stop <-chan struct{}) {
		for i := 3; i < 40; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if err := os.WriteFile(filepath.Join(logs, fmt.Sprintf("t%d.jsonl", i)), loggen.GenerateThreads(200, 1, int64(i+1)), 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	}
}

// monkeyConnect is an AG-UI agent over SSE that streams a long run.
func monkeyConnect(t *testing.T, _ string) ([]string, func(<-chan struct{})) {
	lines := strings.Split(strings.TrimSpace(string(loggen.Generate(3000, 1))), "\n")
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, l := range lines {
			fmt.Fprintf(w, "data: %s\n\n", l)
			w.(http.Flusher).Flush()
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return []string{"connect", srv.URL, "--message", "go"}, func(s <-chan struct{}) {
		<-s
		close(stop)
	}
}

// monkeyOTLP is the receiver, with Claude Code sessions sent to it.
func monkeyOTLP(t *testing.T, _ string) ([]string, func(<-chan struct{})) {
	addr := freePort(t)
	return []string{"otlp", "--listen", addr, "--grpc-listen", ""}, func(stop <-chan struct{}) {
		ctx := context.Background()
		c, err := otlptest.New(ctx, otlptest.HTTP, addr, "", "claude-code", "monkey-host")
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Shutdown(ctx)
		for i := 0; ; i++ {
			c.ClaudeCode(ctx, fmt.Sprint("session-", i%4), time.Now())
			c.Flush(ctx)
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// freePort is a loopback address no one listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
