package agent_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

func TestAuthRequired(t *testing.T) {
	h := start(t, agent.Options{RequireAuth: true}, acp.ClientCapabilities{})
	// start initialized already; ask again to see the methods.
	resp, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.AuthMethods) != 1 || resp.AuthMethods[0].Agent == nil || resp.AuthMethods[0].Agent.Id != agent.AuthMethodID {
		t.Fatalf("authMethods = %+v, want one agent method %q", resp.AuthMethods, agent.AuthMethodID)
	}
	cwd := t.TempDir()
	_, err = h.conn.NewSession(ctx(t), acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if requestCode(err) != -32000 {
		t.Fatalf("session/new before authenticate: %v, want -32000", err)
	}
	if _, err := h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{}); requestCode(err) != -32000 {
		t.Fatalf("session/list before authenticate: %v, want -32000", err)
	}
	if _, err := h.conn.Authenticate(ctx(t), acp.AuthenticateRequest{MethodId: "password"}); requestCode(err) != -32602 {
		t.Fatalf("authenticate with an unknown method: %v, want -32602", err)
	}
	if _, err := h.conn.Authenticate(ctx(t), acp.AuthenticateRequest{MethodId: agent.AuthMethodID}); err != nil {
		t.Fatalf("authenticate: %v", err)
	}
	h.newSession()
}

func TestNoAuthByDefault(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	resp, err := h.conn.Initialize(ctx(t), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	if err != nil || len(resp.AuthMethods) != 0 {
		t.Fatalf("initialize: %v, authMethods %+v, want none", err, resp.AuthMethods)
	}
}

func TestSetModeAndList(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	id, cwd := h.newSession()
	other, _ := h.newSession()
	if _, err := h.conn.SetSessionMode(ctx(t), acp.SetSessionModeRequest{SessionId: id, ModeId: agent.ModePlan}); err != nil {
		t.Fatalf("set_mode: %v", err)
	}
	var mode acp.SessionModeId
	for _, n := range h.rec.notesFor(id) {
		if n.Update.CurrentModeUpdate != nil {
			mode = n.Update.CurrentModeUpdate.CurrentModeId
		}
	}
	if mode != agent.ModePlan {
		t.Errorf("current_mode_update = %q, want plan", mode)
	}
	if _, err := h.conn.SetSessionMode(ctx(t), acp.SetSessionModeRequest{SessionId: id, ModeId: "yolo"}); requestCode(err) != -32602 {
		t.Errorf("set_mode to an unknown mode: %v, want -32602", err)
	}
	if got := h.prompt(id, "refuse please"); got != acp.StopReasonRefusal {
		t.Errorf("refuse: stopReason %q", got)
	}

	all, err := h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{})
	if err != nil || len(all.Sessions) != 2 {
		t.Fatalf("session/list: %v, %+v", err, all.Sessions)
	}
	mine, err := h.conn.ListSessions(ctx(t), acp.ListSessionsRequest{Cwd: acp.Ptr(cwd)})
	if err != nil || len(mine.Sessions) != 1 || mine.Sessions[0].SessionId != id {
		t.Fatalf("session/list in %s: %v, %+v (other session %s)", cwd, err, mine.Sessions, other)
	}
	s := mine.Sessions[0]
	if s.Title == nil || *s.Title != "Fixture: refuse please" || s.UpdatedAt == nil {
		t.Errorf("listed session = %+v", s)
	}
}

// TestFsCommand: `fs PATH` passes the path through as given (relative
// ones joined to cwd without cleaning) and reports the client's answer.
func TestFsCommand(t *testing.T) {
	h := start(t, agent.Options{}, richCaps)
	id, cwd := h.newSession()
	h.client.addFile("/etc/hostname", "fixture-host\n")
	for _, tc := range []struct{ arg, path, say string }{
		{"/etc/hostname", "/etc/hostname", "fixture-host"},
		{"../x", cwd + string(filepath.Separator) + "../x", "failed"},
	} {
		if got := h.prompt(id, "fs "+tc.arg); got != acp.StopReasonEndTurn {
			t.Fatalf("fs %s: stopReason %q", tc.arg, got)
		}
		reads, _, _ := h.client.requests()
		if last := reads[len(reads)-1]; last != tc.path {
			t.Errorf("fs %s: client asked for %q, want %q", tc.arg, last, tc.path)
		}
		notes := h.rec.notesFor(id)
		msg := notes[len(notes)-1].Update.AgentMessageChunk
		if msg == nil || !strings.Contains(msg.Content.Text.Text, tc.say) {
			t.Errorf("fs %s: last update %+v, want a message saying %q", tc.arg, notes[len(notes)-1].Update, tc.say)
		}
	}
}

// TestCancelSlowTurn: a cancelled `slow` turn still reports its tool call
// as failed, then answers `cancelled`.
func TestCancelSlowTurn(t *testing.T) {
	h := start(t, agent.Options{SlowInterval: 20 * time.Millisecond}, acp.ClientCapabilities{})
	id, _ := h.newSession()
	stop := make(chan acp.StopReason, 1)
	go func() {
		resp, err := h.conn.Prompt(context.Background(), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("slow")}})
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		stop <- resp.StopReason
	}()
	h.rec.waitFor(t, "the first tick", func() bool {
		for _, n := range h.rec.notes {
			if n.Update.AgentMessageChunk != nil {
				return true
			}
		}
		return false
	})
	if err := h.conn.Cancel(ctx(t), acp.CancelNotification{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, stop, "the prompt response"); got != acp.StopReasonCancelled {
		t.Fatalf("stopReason = %q, want cancelled", got)
	}
	if got := finalStatus(h.rec.notesFor(id), "tc-slow"); got != acp.ToolCallStatusFailed {
		t.Errorf("slow tool call ends %q, want failed", got)
	}
}

// TestCrashEndsConnection: `crash` calls Options.Exit mid-turn; here that
// closes the pipes, as the death of the process closes stdio.
func TestCrashEndsConnection(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	id, _ := h.newSession()
	_, err := h.conn.Prompt(ctx(t), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("crash")}})
	if err == nil {
		t.Fatal("prompt answered although the agent crashed")
	}
	if code := recv(t, h.exited, "Options.Exit"); code != agent.CrashExitCode {
		t.Errorf("exit code %d, want %d", code, agent.CrashExitCode)
	}
	waitClosed(t, h.conn.Done(), "the connection to end")
}

// TestHugeCommand: `huge N` sends one message of N bytes and ends the
// turn; a count that is not one is answered in words.
func TestHugeCommand(t *testing.T) {
	h := start(t, agent.Options{}, richCaps)
	id, _ := h.newSession()
	if got := h.prompt(id, "huge 5000"); got != acp.StopReasonEndTurn {
		t.Fatalf("huge: stopReason %q", got)
	}
	if got := h.prompt(id, "huge lots"); got != acp.StopReasonEndTurn {
		t.Fatalf("huge lots: stopReason %q", got)
	}
	var texts []string
	for _, n := range h.rec.notesFor(id) {
		if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			texts = append(texts, c.Content.Text.Text)
		}
	}
	if len(texts) != 2 || texts[0] != strings.Repeat("x", 5000) || !strings.Contains(texts[1], "want a byte count") {
		t.Fatalf("messages of %d texts; want 5000 x's, then the complaint", len(texts))
	}
}
