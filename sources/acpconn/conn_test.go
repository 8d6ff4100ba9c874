package acpconn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/sources"
)

// session is a connection to the fixture agent with everything it sent
// and received collected.
type session struct {
	t    *testing.T
	conn *Conn
	mu   sync.Mutex
	recs []model.Record
	done chan struct{}
	rec  bytes.Buffer
	recM sync.Mutex
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func start(t *testing.T, opts Options, env ...string) *session {
	t.Helper()
	opts.Command = []string{"env"}
	opts.Command = append(opts.Command, env...)
	opts.Command = append(opts.Command, acptest.Build(t))
	return startCommand(t, opts)
}

// startCommand is start with the command opts names, which runs the
// fixture agent somehow.
func startCommand(t *testing.T, opts Options) *session {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	s := &session{t: t, done: make(chan struct{})}
	opts.Record = lockedWriter{&s.recM, &s.rec}
	var stderr bytes.Buffer
	opts.Stderr = &stderr
	c, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.conn = c
	go func() {
		for b := range c.Records() {
			s.mu.Lock()
			s.recs = append(s.recs, b...)
			s.mu.Unlock()
		}
		close(s.done)
	}()
	t.Cleanup(func() { c.Close(); <-s.done })
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

// updatesOfLastPrompt counts the session/update records received after
// the last session/prompt was sent.
func (s *session) updatesOfLastPrompt() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.recs {
		if bytes.Contains(r.Raw, []byte(`"method":"session/prompt"`)) {
			n = 0
		}
		// available_commands_update follows session/new and may cross
		// the first prompt on the wire.
		if _, ok := r.Event.(acp.Update); ok && !bytes.Contains(r.Raw, []byte("available_commands_update")) {
			n++
		}
	}
	return n
}

func (s *session) wire() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, r := range s.recs {
		b.Write(r.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// eventually polls cond for up to 10 s: records reach the test through the
// journal's pump, a moment after the SDK has seen them.
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func ctx10(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// A 20,000-update burst arrives whole and the connection survives it.
func TestBurstLosesNothing(t *testing.T) {
	t.Parallel()
	s := start(t, Options{})
	stop, err := s.conn.Prompt(ctx10(t), "burst 20000")
	if err != nil || stop != "end_turn" {
		t.Fatalf("burst: %q, %v", stop, err)
	}
	eventually(func() bool { return s.updatesOfLastPrompt() >= 20002 })
	if got := s.updatesOfLastPrompt(); got != 20002 {
		t.Fatalf("%d updates arrived, want 20002", got)
	}
	if stop, err := s.conn.Prompt(ctx10(t), "refuse"); err != nil || stop != "refusal" {
		t.Fatalf("after the burst: %q, %v; the connection should still work", stop, err)
	}
}

// Even when the SDK's handler falls behind (here 100 µs an update), the
// gate keeps its queue of 1024 from overflowing: nothing is lost and the
// connection survives. Without the gate this closes the connection.
func TestBurstWithSlowHandler(t *testing.T) {
	t.Parallel()
	s := start(t, Options{handlerDelay: 100 * time.Microsecond})
	stop, err := s.conn.Prompt(ctx10(t), "burst 5000")
	if err != nil || stop != "end_turn" {
		t.Fatalf("burst: %q, %v", stop, err)
	}
	eventually(func() bool { return s.updatesOfLastPrompt() >= 5002 })
	if got := s.updatesOfLastPrompt(); got != 5002 {
		t.Fatalf("%d updates arrived, want 5002", got)
	}
}

func TestPermissionAnswers(t *testing.T) {
	for _, tc := range []struct {
		name, kind, stop, status string
	}{
		{"allow", "allow_once", "end_turn", `"status":"completed"`},
		{"reject", "reject_once", "end_turn", `"status":"failed"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := make(chan model.PermissionRequest, 1)
			s := start(t, Options{Permissions: Permissions{Ask: func(_ context.Context, req model.PermissionRequest) (string, bool) {
				asked <- req
				for _, o := range req.Options {
					if o.Kind == tc.kind {
						return o.ID, true
					}
				}
				return "", false
			}}})
			stop, err := s.conn.Prompt(ctx10(t), "permission")
			if err != nil || stop != tc.stop {
				t.Fatalf("%q, %v", stop, err)
			}
			req := <-asked
			if len(req.Options) != 4 || req.ToolCallID == "" {
				t.Fatalf("request %+v", req)
			}
			if !eventually(func() bool { return strings.Contains(s.wire(), tc.status) }) {
				t.Fatalf("no %s after %s", tc.status, tc.name)
			}
		})
	}
}

// Cancel while a permission question is open: the question is withdrawn
// and the turn ends cancelled.
func TestCancelWhilePermissionPending(t *testing.T) {
	asked := make(chan struct{})
	gotCtxDone := make(chan struct{})
	s := start(t, Options{Permissions: Permissions{Ask: func(ctx context.Context, req model.PermissionRequest) (string, bool) {
		close(asked)
		<-ctx.Done()
		close(gotCtxDone)
		return "", false
	}}})
	result := make(chan string, 1)
	go func() {
		stop, err := s.conn.Prompt(ctx10(t), "permission")
		if err != nil {
			stop = "error: " + err.Error()
		}
		result <- stop
	}()
	<-asked
	if err := s.conn.Cancel(ctx10(t)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-gotCtxDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the open question was not withdrawn")
	}
	if stop := <-result; stop != "cancelled" {
		t.Fatalf("stop reason %q, want cancelled", stop)
	}
}

// esc during a slow turn: cancel gives the cancelled stop reason.
func TestCancelSlowTurn(t *testing.T) {
	s := start(t, Options{})
	result := make(chan string, 1)
	go func() {
		stop, err := s.conn.Prompt(ctx10(t), "slow")
		if err != nil {
			stop = "error: " + err.Error()
		}
		result <- stop
	}()
	time.Sleep(600 * time.Millisecond)
	if err := s.conn.Cancel(ctx10(t)); err != nil {
		t.Fatal(err)
	}
	if stop := <-result; stop != "cancelled" {
		t.Fatalf("stop reason %q, want cancelled", stop)
	}
}

// The fs methods refuse paths that lead out of the session folder.
func TestFSConfined(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("TOPSECRET"), 0o644)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("fine content"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link"))
	s := start(t, Options{Dir: dir})
	root := s.conn.folder.Root()
	for _, p := range []string{"../x", "/etc/passwd", root + "/link", root + "/../" + filepath.Base(outside) + "/secret"} {
		before := len(s.wire())
		if stop, err := s.conn.Prompt(ctx10(t), "fs "+p); err != nil || stop != "end_turn" {
			t.Fatalf("fs %s: %q, %v", p, stop, err)
		}
		eventually(func() bool { return strings.Contains(s.wire()[before:], `"stopReason"`) })
		w := s.wire()[before:]
		if strings.Contains(w, "TOPSECRET") || strings.Contains(w, "root:x:0:0") {
			t.Fatalf("fs %s leaked the file:\n%s", p, w)
		}
		if !strings.Contains(w, `"error"`) {
			t.Fatalf("fs %s: no error answered:\n%s", p, w)
		}
	}
	before := len(s.wire())
	s.conn.Prompt(ctx10(t), "fs "+root+"/ok.txt")
	if !eventually(func() bool { return strings.Contains(s.wire()[before:], "fine content") }) {
		t.Fatal("a file inside the folder was not served")
	}
}

// The agent dying mid-turn: the prompt fails with a clear error, the
// records close, and the recording holds every line received.
func TestAgentKilledMidTurn(t *testing.T) {
	s := start(t, Options{})
	_, err := s.conn.Prompt(ctx10(t), "crash")
	if err == nil || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("prompt error %v; want one saying the agent exited", err)
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("records did not close after the agent died")
	}
	s.recM.Lock()
	lines := strings.Count(s.rec.String(), "\n")
	s.recM.Unlock()
	s.mu.Lock()
	n := len(s.recs)
	s.mu.Unlock()
	if lines != n || n < 4 {
		t.Fatalf("recording has %d lines, %d records were seen", lines, n)
	}
}

// Every line of a recording parses back to the records seen live.
func TestRecordingMatchesRecords(t *testing.T) {
	s := start(t, Options{AllowWrite: true})
	if _, err := s.conn.Prompt(ctx10(t), "all"); err != nil {
		t.Fatal(err)
	}
	s.conn.Close()
	<-s.done
	recLines := strings.Split(strings.TrimSpace(s.rec.String()), "\n")
	if len(recLines) != len(s.recs) {
		t.Fatalf("%d recording lines, %d records", len(recLines), len(s.recs))
	}
	recorded, err := sources.ReadACPRecording(strings.NewReader(s.rec.String()))
	if err != nil {
		t.Fatal(err)
	}
	live, replayed := fold.New(fold.Options{}), fold.New(fold.Options{})
	live.Apply(s.recs...)
	replayed.Apply(recorded...)
	a, _ := live.Export()
	b, _ := replayed.Export()
	if !bytes.Equal(a.State, b.State) {
		t.Fatal("the recording folds differently from the live session")
	}
	if len(live.Steps()) < 13 {
		t.Fatalf("the live session folded to %d steps", len(live.Steps()))
	}
	for i, l := range recLines {
		line, err := acp.ParseLine([]byte(l))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !bytes.Equal(line.Msg, s.recs[i].Raw) || !line.At.Equal(s.recs[i].At.Truncate(time.Millisecond)) && line.At.UnixMilli() != s.recs[i].At.UnixMilli() {
			t.Fatalf("line %d differs from record %d", i+1, i+1)
		}
	}
}
