package agent_test

import (
	"strconv"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

// checkBurst asserts notes hold a burst of n in order: the tool_call, n
// numbered updates, the completing update.
func checkBurst(t *testing.T, notes []acp.SessionNotification, n int) {
	t.Helper()
	if len(notes) != n+2 {
		t.Fatalf("%d updates, want %d", len(notes), n+2)
	}
	if notes[0].Update.ToolCall == nil || finalStatus(notes[n+1:], "tc-burst") != acp.ToolCallStatusCompleted {
		t.Fatalf("burst not framed by tool_call and completion: first %+v last %+v", notes[0].Update, notes[n+1].Update)
	}
	for i, note := range notes[1 : n+1] {
		u := note.Update
		if i%2 == 0 {
			if u.AgentMessageChunk == nil || u.AgentMessageChunk.Content.Text.Text != strconv.Itoa(i)+" " {
				t.Fatalf("update %d: want agent_message_chunk %q, got %+v", i, strconv.Itoa(i)+" ", u)
			}
			continue
		}
		if u.ToolCallUpdate == nil {
			t.Fatalf("update %d: want tool_call_update, got %+v", i, u)
		}
		if out, _ := u.ToolCallUpdate.RawOutput.(map[string]any); out["seq"] != float64(i) {
			t.Fatalf("update %d: want tool_call_update seq %d, got %+v", i, i, u)
		}
	}
}

// withoutCommands drops available_commands_update notifications.
func withoutCommands(notes []acp.SessionNotification) []acp.SessionNotification {
	var out []acp.SessionNotification
	for _, n := range notes {
		if n.Update.AvailableCommandsUpdate == nil {
			out = append(out, n)
		}
	}
	return out
}

// TestBurstArrivesCompleteAndInOrder sends 20,000 updates live, then
// replays them all before a session/load response: a client whose handler
// never blocks keeps up with the SDK's 1024-slot queue both times.
func TestBurstArrivesCompleteAndInOrder(t *testing.T) {
	store := agent.NewStore("")
	h := start(t, agent.Options{Store: store}, acp.ClientCapabilities{})
	id, cwd := h.newSession()
	if got := h.prompt(id, "burst"); got != acp.StopReasonEndTurn {
		t.Fatalf("stopReason = %q", got)
	}
	checkBurst(t, withoutCommands(h.rec.notesFor(id)), agent.DefaultBurst)

	h2 := start(t, agent.Options{Store: store, LoadSplit: agent.LoadSplitBefore}, acp.ClientCapabilities{})
	if _, err := h2.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: id, Cwd: cwd, McpServers: []acp.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	replayed := withoutCommands(h2.rec.notesFor(id))
	if len(replayed) == 0 || kindOf(replayed[0].Update) != "user_message_chunk" {
		t.Fatalf("replay does not start with the user's prompt")
	}
	checkBurst(t, replayed[1:], agent.DefaultBurst)
}

func TestBurstCount(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	id, _ := h.newSession()
	h.prompt(id, "/burst 7")
	checkBurst(t, withoutCommands(h.rec.notesFor(id)), 7)
}
