package agent_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

// loadSplit is what a session/load response says about its replay.
type loadSplit struct{ before, after int }

func splitOf(t *testing.T, meta map[string]any) loadSplit {
	t.Helper()
	m, ok := meta["acptest"].(map[string]any)
	if !ok {
		t.Fatalf("response _meta has no acptest: %v", meta)
	}
	return loadSplit{int(m["updatesBeforeResponse"].(float64)), int(m["updatesAfterResponse"].(float64))}
}

// liveHistory is what the agent stored for a session after its turns: the
// updates on the wire, without the slash-command lists (connection state,
// not history), and with the user's prompt first.
func liveHistory(t *testing.T, h *harness, id acp.SessionId, prompt string) []json.RawMessage {
	t.Helper()
	user, _ := json.Marshal(map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": prompt}})
	out := []json.RawMessage{user}
	for _, m := range h.rec.updatesOnWire(t, id) {
		if m.kind() != "available_commands_update" {
			out = append(out, m.Params.Update)
		}
	}
	return out
}

// sameUpdate compares two updates as JSON values, ignoring messageId (the
// expected user chunk is built here without the agent's id).
func sameUpdate(a, b json.RawMessage) bool {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	delete(x, "messageId")
	delete(y, "messageId")
	return reflect.DeepEqual(x, y)
}

func TestLoadReplaysHistoryAroundTheResponse(t *testing.T) {
	for _, split := range []agent.LoadSplit{agent.LoadSplitHalf, agent.LoadSplitBefore, agent.LoadSplitAfter} {
		t.Run(string(split), func(t *testing.T) {
			store := agent.NewStore("")
			h1 := start(t, agent.Options{Store: store}, richCaps)
			id, cwd := h1.newSession()
			h1.prompt(id, "all")
			history := liveHistory(t, h1, id, "all")

			// A second connection sharing the store, like a restarted client.
			h2 := start(t, agent.Options{Store: store, LoadSplit: split}, acp.ClientCapabilities{})
			resp, err := h2.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: id, Cwd: cwd, McpServers: []acp.McpServer{}})
			if err != nil {
				t.Fatalf("session/load: %v", err)
			}
			got := splitOf(t, resp.Meta)
			want := map[agent.LoadSplit]int{agent.LoadSplitHalf: (len(history) + 1) / 2, agent.LoadSplitBefore: len(history), agent.LoadSplitAfter: 0}[split]
			if got.before != want || got.after != len(history)-want+1 {
				t.Fatalf("split = %+v, want before %d after %d (history %d)", got, want, len(history)-want+1, len(history))
			}
			if resp.Modes == nil || resp.Modes.CurrentModeId != agent.ModePlan {
				t.Errorf("modes after load = %+v, want current plan (all switched modes)", resp.Modes)
			}
			total := got.before + got.after
			h2.rec.waitFor(t, "the replay after the response", func() bool {
				n := 0
				for _, note := range h2.rec.notes {
					if note.SessionId == id {
						n++
					}
				}
				return n == total
			})

			// On the wire: exactly `before` updates precede the response.
			var before, after []json.RawMessage
			seen := false
			for _, m := range h2.rec.wire(t) {
				switch {
				case bytes.Contains(m.Result, []byte("updatesBeforeResponse")):
					seen = true
				case m.Method == acp.ClientMethodSessionUpdate && !seen:
					before = append(before, m.Params.Update)
				case m.Method == acp.ClientMethodSessionUpdate:
					after = append(after, m.Params.Update)
				}
			}
			if len(before) != got.before || len(after) != got.after {
				t.Fatalf("on the wire %d before and %d after the response, want %+v", len(before), len(after), got)
			}
			replayed := append(before, after[:len(after)-1]...)
			for i := range history {
				if !sameUpdate(replayed[i], history[i]) {
					t.Fatalf("replayed update %d differs:\n got %s\nwant %s", i, replayed[i], history[i])
				}
			}
			var last struct{ SessionUpdate string }
			_ = json.Unmarshal(after[len(after)-1], &last)
			if last.SessionUpdate != "available_commands_update" {
				t.Errorf("last update after load = %s, want available_commands_update", after[len(after)-1])
			}
		})
	}
}

func TestLoadUnknownSession(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	_, err := h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: "fx-nope", Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if requestCode(err) != -32002 {
		t.Fatalf("load of an unknown session: %v, want -32002", err)
	}
}
