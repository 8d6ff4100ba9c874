package agent_test

import (
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	"github.com/agentwatch/agentwatch/internal/testkit/syncbuf"
	acp "github.com/coder/acp-go-sdk"
)

// process is the fixture-agent binary running under a test.
type process struct {
	*harness
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
	done   chan struct{} // closed when the process has exited
	err    error         // cmd.Wait's result, set before done closes
}

// startBinary runs the fixture-agent binary with extra environment and
// initializes it over stdio.
func startBinary(t *testing.T, caps acp.ClientCapabilities, env ...string) *process {
	t.Helper()
	cmd := exec.Command(acptest.Build(t))
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, rec: newRecorder()}
	h.client = newClient(h.rec)
	h.conn = acp.NewClientSideConnection(h.client, stdin, h.rec.gate(stdout))
	h.conn.SetLogger(slog.New(slog.DiscardHandler))
	p.harness = h
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		h.rec.close()
		stdin.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Error("fixture agent did not exit after stdin closed")
			cmd.Process.Kill()
		}
	})
	if _, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, p.stderr)
	}
	return p
}

func TestBinaryHelp(t *testing.T) {
	out, err := exec.Command(acptest.Build(t), "--help").Output()
	if err != nil || !strings.Contains(string(out), "Prompt commands") {
		t.Fatalf("--help: %v\n%s", err, out)
	}
}

// TestBinaryCrash: the process dies mid-turn with CrashExitCode, its log
// went to stderr and stdout held nothing but JSON-RPC.
func TestBinaryCrash(t *testing.T) {
	p := startBinary(t, acp.ClientCapabilities{})
	id, _ := p.newSession()
	if _, err := p.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("crash")}}); err == nil {
		t.Fatal("prompt answered although the agent crashed")
	}
	waitClosed(t, p.conn.Done(), "the connection to end")
	waitClosed(t, p.done, "the agent to exit")
	err := p.err
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != agent.CrashExitCode {
		t.Fatalf("exit: %v, want status %d", err, agent.CrashExitCode)
	}
	for _, want := range []string{"session/new", "crashing on purpose"} {
		if !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.stderr)
		}
	}
	p.rec.wire(t) // fails on any stdout line that is not JSON
}

// TestBinaryStoreAcrossProcesses: with ACPTEST_STORE, a second process
// lists and loads what the first one did.
func TestBinaryStoreAcrossProcesses(t *testing.T) {
	store := t.TempDir()
	first := startBinary(t, richCaps, agent.EnvStore+"="+store)
	id, cwd := first.newSession()
	if got := first.prompt(id, "all"); got != acp.StopReasonEndTurn {
		t.Fatalf("stopReason %q", got)
	}
	history := liveHistory(t, first.harness, id, "all")
	if _, err := os.Stat(filepath.Join(store, string(id)+".json")); err != nil {
		t.Fatalf("session file: %v", err)
	}

	second := startBinary(t, acp.ClientCapabilities{}, agent.EnvStore+"="+store, agent.EnvLoadSplit+"=after")
	list, err := second.conn.ListSessions(ctx(t), acp.ListSessionsRequest{Cwd: acp.Ptr(cwd)})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != id {
		t.Fatalf("session/list in the second process: %v %+v", err, list.Sessions)
	}
	resp, err := second.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: id, Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if got := splitOf(t, resp.Meta); got.before != 0 || got.after != len(history)+1 {
		t.Fatalf("split %+v, want 0 before and %d after", got, len(history)+1)
	}
	second.rec.waitFor(t, "the replay", func() bool { return len(second.rec.notes) == len(history)+1 })
	replayed := second.rec.updatesOnWire(t, id)
	for i := range history {
		if !sameUpdate(replayed[i].Params.Update, history[i]) {
			t.Fatalf("replayed update %d differs:\n got %s\nwant %s", i, replayed[i].Params.Update, history[i])
		}
	}
}

func TestBinaryAuthFromEnv(t *testing.T) {
	p := startBinary(t, acp.ClientCapabilities{}, agent.EnvAuth+"=1")
	_, err := p.conn.NewSession(ctx(t), acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if requestCode(err) != -32000 {
		t.Fatalf("session/new: %v, want -32000", err)
	}
}

// TestBinaryBurst: 20,000 updates through a real pipe arrive complete and
// in order.
func TestBinaryBurst(t *testing.T) {
	p := startBinary(t, acp.ClientCapabilities{})
	id, _ := p.newSession()
	if got := p.prompt(id, "burst"); got != acp.StopReasonEndTurn {
		t.Fatalf("stopReason %q", got)
	}
	checkBurst(t, withoutCommands(p.rec.notesFor(id)), agent.DefaultBurst)
}
