package agent_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

// harness is one in-process agent connection driven by the SDK's client
// side over io.Pipes.
type harness struct {
	t      *testing.T
	conn   *acp.ClientSideConnection
	client *client
	rec    *recorder
	exited chan int // the code passed to Options.Exit
}

var errCrashed = errors.New("agent crashed")

// start serves an agent with opts and initializes it with caps.
func start(t *testing.T, opts agent.Options, caps acp.ClientCapabilities) *harness {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	h := &harness{t: t, rec: newRecorder(), exited: make(chan int, 1)}
	h.client = newClient(h.rec)
	opts.Exit = func(code int) {
		h.exited <- code
		toClientW.CloseWithError(errCrashed)
		toAgentR.CloseWithError(errCrashed)
	}
	served := make(chan struct{})
	go func() {
		agent.Serve(opts, toAgentR, toClientW)
		toClientW.Close()
		close(served)
	}()
	h.conn = acp.NewClientSideConnection(h.client, toAgentW, h.rec.gate(toClientR))
	h.conn.SetLogger(slog.New(slog.DiscardHandler))
	t.Cleanup(func() {
		h.rec.close()
		toAgentW.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("agent did not stop after its input closed")
		}
	})

	resp, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: caps,
		ClientInfo:         &acp.Implementation{Name: "agent_test", Version: "0"},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if !resp.AgentCapabilities.LoadSession || resp.AgentCapabilities.SessionCapabilities.List == nil || !resp.AgentCapabilities.PromptCapabilities.Image {
		t.Fatalf("initialize: capabilities %+v", resp.AgentCapabilities)
	}
	return h
}

// richCaps is a client that offers fs read/write and Zed's terminal_output.
var richCaps = acp.ClientCapabilities{
	Fs:   acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
	Meta: map[string]any{"terminal_output": true},
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// newSession opens a session in a fresh temp dir and waits for the
// available_commands_update the agent sends after the response.
func (h *harness) newSession() (acp.SessionId, string) {
	h.t.Helper()
	cwd := h.t.TempDir()
	resp, err := h.conn.NewSession(ctx(h.t), acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		h.t.Fatalf("session/new: %v", err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != agent.ModeCode || len(resp.Modes.AvailableModes) != 2 {
		h.t.Fatalf("session/new modes: %+v", resp.Modes)
	}
	h.rec.waitFor(h.t, "available_commands_update", func() bool {
		for _, n := range h.rec.notes {
			if n.SessionId == resp.SessionId && n.Update.AvailableCommandsUpdate != nil {
				return true
			}
		}
		return false
	})
	return resp.SessionId, cwd
}

// prompt sends text and returns the stop reason.
func (h *harness) prompt(id acp.SessionId, text string) acp.StopReason {
	h.t.Helper()
	resp, err := h.conn.Prompt(ctx(h.t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	if err != nil {
		h.t.Fatalf("session/prompt %q: %v", text, err)
	}
	return resp.StopReason
}

// requestCode is the JSON-RPC error code of err, or 0.
func requestCode(err error) int {
	var re *acp.RequestError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

// recv receives from ch or fails the test after 20 s.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// waitClosed waits for ch to be closed or fails the test after 20 s.
func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	recv(t, ch, what)
}
