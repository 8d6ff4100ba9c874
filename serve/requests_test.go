package serve

import (
	"bufio"
	"context"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// sizeShow is a show whose screens report every size they are given.
type sizeShow struct{ sizes chan tea.WindowSizeMsg }

func (s sizeShow) Title() string { return "sizes" }

func (s sizeShow) Screen(context.Context) (Screen, error) {
	return Screen{Model: sizeScreen(s)}, nil
}

// sizeScreen is a screen that draws one line and reports its sizes.
type sizeScreen sizeShow

func (s sizeScreen) Init() tea.Cmd { return nil }

func (s sizeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		s.sizes <- m
	}
	return s, nil
}

func (s sizeScreen) View() tea.View { return tea.NewView("sizes") }

// rawSession opens a session with a w×h terminal whose output is thrown
// away (a terminal emulator of the huge sizes the tests ask for would
// itself be huge); got counts its bytes.
func rawSession(t *testing.T, ts *testServer, w, h int) (sess *gossh.Session, got *atomic.Int64) {
	t.Helper()
	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	sess, err = client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	got = &atomic.Int64{}
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			got.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return sess, got
}

// A terminal of 100000×100000, asked for at the start or by a window
// change, gets a screen of MaxColumns×MaxRows; sizes within bounds are
// given as they are.
func TestTerminalSizeClamped(t *testing.T) {
	show := sizeShow{sizes: make(chan tea.WindowSizeMsg, 16)}
	ts := startShow(t, show, Config{}, nil)
	sess, _ := rawSession(t, ts, 100000, 100000)
	// seen waits until the screen is given w×h, failing on any size
	// beyond the bounds on the way (a size may come twice).
	seen := func(w, h int) {
		t.Helper()
		for {
			select {
			case m := <-show.sizes:
				if m.Width > MaxColumns || m.Height > MaxRows {
					t.Fatalf("the screen was given %d×%d, beyond %d×%d", m.Width, m.Height, MaxColumns, MaxRows)
				}
				if m.Width == w && m.Height == h {
					return
				}
			case <-time.After(waitLimit):
				t.Fatalf("the screen was never given %d×%d", w, h)
			}
		}
	}
	seen(MaxColumns, MaxRows)
	for _, c := range []struct{ w, h, wantW, wantH int }{
		{120, 40, 120, 40},
		{1 << 31, 50, MaxColumns, 50},
		{80, 100000, 80, MaxRows},
		{100000, 100000, MaxColumns, MaxRows},
	} {
		if err := sess.WindowChange(c.h, c.w); err != nil {
			t.Fatal(err)
		}
		seen(c.wantW, c.wantH)
	}
}

// heapPeak samples the heap in use until stop is closed, and returns the
// highest figure seen.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	peak := make(chan uint64, 1)
	go func() {
		var most uint64
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			most = max(most, ms.HeapInuse)
			select {
			case <-stop:
				peak <- most
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return peak
}

// A viewer claiming a huge terminal, then a huge window change, costs the
// server what a terminal of the largest size costs, some tens of
// megabytes; unclamped, it ran the server out of memory.
func TestHugeTerminalLeavesMemorySmall(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peak := heapPeak(stop)
	sess, got := rawSession(t, ts, 100000, 100000)
	waitBytes := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(waitLimit); got.Load() < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the screen sent %d bytes, want %d", got.Load(), n)
			}
		}
	}
	waitBytes(1)
	if err := sess.WindowChange(100000, 100000); err != nil {
		t.Fatal(err)
	}
	sess.Stdin = strings.NewReader("")
	waitBytes(got.Load() + 1) // the demo plays on: frames keep coming
	time.Sleep(500 * time.Millisecond)
	close(stop)
	grew := int64(<-peak) - int64(before.HeapInuse)
	t.Logf("heap in use grew by %.1f MiB at most", float64(grew)/(1<<20))
	if grew > 128<<20 {
		t.Errorf("a viewer of a 100000×100000 terminal made the heap grow by %.0f MiB", float64(grew)/(1<<20))
	}
}

// Nothing but a terminal, its size and a shell is granted: a command, a
// subsystem, environment variables, agent and X11 forwarding are refused
// on a session, and the session then still shows the screen.
func TestSessionRequestsRefused(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ch, reqs, err := client.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	go gossh.DiscardRequests(reqs)
	for _, r := range []struct {
		kind    string
		payload any
	}{
		{"env", struct{ Name, Value string }{"LD_PRELOAD", "/tmp/x.so"}},
		{"auth-agent-req@openssh.com", nil},
		{"x11-req", struct {
			Single           bool
			Protocol, Cookie string
			Screen           uint32
		}{false, "MIT-MAGIC-COOKIE-1", "0123456789abcdef", 0}},
		{"subsystem", struct{ Name string }{"sftp"}},
		{"exec", struct{ Command string }{"cat /etc/passwd"}},
		{"signal", struct{ Signal string }{"KILL"}},
	} {
		var payload []byte
		if r.payload != nil {
			payload = gossh.Marshal(r.payload)
		}
		ok, err := ch.SendRequest(r.kind, true, payload)
		if err != nil {
			t.Fatalf("%s: %v", r.kind, err)
		}
		if ok {
			t.Errorf("a %q request was granted", r.kind)
		}
	}
	pty := gossh.Marshal(struct {
		Term                string
		Columns, Rows, W, H uint32
		Modes               string
	}{"xterm", 80, 24, 0, 0, "\x00"})
	for _, r := range []struct {
		kind    string
		payload []byte
	}{{"pty-req", pty}, {"shell", nil}} {
		if ok, err := ch.SendRequest(r.kind, true, r.payload); !ok || err != nil {
			t.Fatalf("a %s request after the refusals: %v, %v", r.kind, ok, err)
		}
	}
	line, err := bufio.NewReader(io.LimitReader(ch, 1<<20)).ReadString('m')
	if err != nil || line == "" {
		t.Errorf("the screen did not come after the refusals: %q, %v", line, err)
	}
	for _, kind := range []string{"auth-agent-req@openssh.com", "x11-req", "subsystem", "exec"} {
		if !strings.Contains(ts.log.String(), kind+" request refused") {
			t.Errorf("the log does not say a %s request was refused:\n%s", kind, ts.log)
		}
	}
}

// No port is forwarded, either way.
func TestPortForwardingRefused(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	client, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	// direct-tcpip: to the server's own port, which is surely listening.
	if c, err := client.Dial("tcp", ts.Addr().String()); err == nil {
		c.Close()
		t.Error("a direct-tcpip channel (ssh -L) was opened")
	}
	// tcpip-forward.
	if l, err := client.Listen("tcp", "127.0.0.1:0"); err == nil {
		l.Close()
		t.Error("a tcpip-forward request (ssh -R) was granted")
	}
	for _, kind := range []string{"direct-tcpip", "x11", "auth-agent@openssh.com"} {
		if ch, _, err := client.OpenChannel(kind, nil); err == nil {
			ch.Close()
			t.Errorf("a %q channel was opened", kind)
		}
	}
}
