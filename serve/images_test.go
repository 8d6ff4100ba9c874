package serve

// Screenshots over SSH: every session's screen asks its own viewer's
// terminal whether it shows kitty graphics, and keeps its own record of the
// pictures sent there.

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// sessionOutput keeps what the server writes to one session.
type sessionOutput struct {
	w  io.Writer
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *sessionOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.b.Write(p)
	o.mu.Unlock()
	return o.w.Write(p)
}

func (o *sessionOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// recordingServer serves args with every session's output kept; the
// record of the next session comes on the returned channel.
func recordingServer(t testing.TB, args []string) (*testServer, <-chan *sessionOutput) {
	outs := make(chan *sessionOutput, 4)
	ts := startServerWith(t, args, ShowOptions{}, Config{}, func(s *Server) {
		s.output = func(w io.Writer) io.Writer {
			o := &sessionOutput{w: w}
			outs <- o
			return o
		}
	})
	return ts, outs
}

// speakKitty makes v's terminal answer the kitty graphics query as kitty
// does ("OK" for image 31), and count the graphics queries it is sent.
func (v *testViewer) speakKitty() *int {
	queries := new(int)
	v.term.RegisterApcHandler(func(data []byte) bool {
		if !bytes.HasPrefix(data, []byte("G")) {
			return false
		}
		keys, _, _ := bytes.Cut(data[1:], []byte(";"))
		if graphicsQueryKeys.Match(keys) {
			*queries++ // under v.mu, as the emulator's writes are
			go v.send("\x1b_Gi=31;OK\x1b\\")
		}
		return true
	})
	return queries
}

// graphicsQueryKeys matches the keys of the graphics query.
var graphicsQueryKeys = regexp.MustCompile(`(^|,)a=q(,|$)`)

// demoLog copies the demo to a file of the test's, to be served live.
func demoLog(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "demo.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// graphicsKeys matches the keys of every graphics code.
var graphicsKeys = regexp.MustCompile(`\x1b_G([^;\x1b]*)`)

// uploadIDs are the image ids of the pictures whose upload starts in out
// (a PNG, or RGB bytes), in order.
func uploadIDs(out string) []string {
	var ids []string
	for _, m := range graphicsKeys.FindAllStringSubmatch(out, -1) {
		keys := map[string]string{}
		for _, kv := range strings.Split(m[1], ",") {
			k, v, _ := strings.Cut(kv, "=")
			keys[k] = v
		}
		if keys["a"] == "" && keys["i"] != "" && (keys["f"] == "100" || keys["f"] == "24") {
			ids = append(ids, keys["i"])
		}
	}
	return ids
}

// shotSteps are the demo's steps that show a screenshot (from 1), of 30.
var shotSteps = []int{9, 15, 23, 24}

// walkShots selects each of the demo's screenshot steps in turn, from
// step at, and returns the step it ends on (the last of them).
func (v *testViewer) walkShots(at int) int {
	v.t.Helper()
	for _, k := range shotSteps {
		for ; at > k; at-- {
			v.send(keyLeft)
		}
		for ; at < k; at++ {
			v.send(keyRight)
		}
		v.waitFor(stepOf(k, 30))
	}
	return shotSteps[len(shotSteps)-1]
}

func TestServeImagesPerViewer(t *testing.T) {
	ts, outs := recordingServer(t, []string{demoLog(t)})
	type viewer struct {
		v       *testViewer
		out     *sessionOutput
		queries *int
	}
	open := func(term string, kitty bool) viewer {
		v := ts.viewWith(t, ts.allowed, term, 160, 48)
		var q *int
		if kitty {
			q = v.speakKitty()
		}
		o := <-outs
		v.waitFor(stepOf(30, 30))
		return viewer{v, o, q}
	}
	a := open("xterm-kitty", true)
	at := a.v.walkShots(30)
	// A second kitty joins later; a plain xterm beside them.
	b := open("xterm-kitty", true)
	c := open("xterm-256color", false)
	b.v.walkShots(30)
	c.v.walkShots(30)
	a.v.walkShots(at) // again: everything is there already

	for name, w := range map[string]viewer{"first": a, "second": b} {
		deadline := time.Now().Add(waitLimit)
		var ids []string
		for {
			ids = uploadIDs(w.out.String())
			if len(ids) >= len(shotSteps) || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		w.v.mu.Lock()
		queries := *w.queries
		w.v.mu.Unlock()
		if queries != 1 {
			t.Errorf("%s kitty viewer's terminal was asked %d times, want once", name, queries)
		}
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				t.Errorf("%s kitty viewer: image %s sent twice", name, id)
			}
			seen[id] = true
		}
		if len(ids) != len(shotSteps) {
			t.Errorf("%s kitty viewer was sent %d pictures, want one per screenshot: %d", name, len(ids), len(shotSteps))
		}
		if !strings.ContainsRune(w.v.screen(), '\U0010EEEE') {
			t.Errorf("%s kitty viewer's screen shows no placeholder cell", name)
		}
	}
	plain := c.out.String()
	if strings.Contains(plain, "\x1b_G") {
		t.Errorf("the xterm viewer was sent graphics codes: %q", plain[strings.Index(plain, "\x1b_G"):][:80])
	}
	if !strings.Contains(plain, "▀") {
		t.Error("the xterm viewer was not drawn half blocks")
	}
}
