package fold_test

import (
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

const (
	acpPrompt2 = `send {"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"and again"}]}}`
	acpEnd2    = `recv {"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`
)

func readCall(id, status string) string {
	return upd(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","title":"Read a.go","kind":"read","status":"` + status + `","locations":[{"path":"a.go"}]}`)
}

func callDone(id string) string {
	return upd(`{"sessionUpdate":"tool_call_update","toolCallId":"` + id + `","status":"completed"}`)
}

// Agents number tool calls per turn: an id of an earlier turn that comes
// back names a new call, with its own step, duration and transcript row.
func TestACPToolCallIDsAreUniquePerTurn(t *testing.T) {
	f := acpFold(t,
		acpPrompt1, readCall("toolu_1", "pending"), callDone("toolu_1"), readCall("toolu_2", "pending"), callDone("toolu_2"), acpEnd1,
		acpPrompt2, readCall("toolu_1", "pending"), callDone("toolu_1"), readCall("toolu_2", "in_progress"), callDone("toolu_2"), acpEnd2,
	)
	steps := f.Steps()
	if len(steps) != 4 {
		t.Fatalf("%d steps, want 4 (two calls in each of two turns)", len(steps))
	}
	for i, s := range steps {
		if s.Status != model.StatusCompleted || s.Index != i {
			t.Errorf("step %d: %+v", i, s)
		}
		// Each call took one record's time (100 ms): none spans a turn.
		if d := s.Duration(); d != 100*time.Millisecond {
			t.Errorf("step %d took %v, want 100ms", i, d)
		}
	}
	if steps[0].RunID == steps[2].RunID {
		t.Error("the second turn's toolu_1 is in the first turn's run")
	}
	rows := 0
	for _, it := range f.Items() {
		if it.Kind == model.ItemToolCall {
			if it.Step != rows {
				t.Errorf("tool call row %d shows step %d", rows, it.Step)
			}
			rows++
		}
	}
	if rows != 4 {
		t.Errorf("%d tool call rows, want 4", rows)
	}
	// Within a turn an id announced again is still the same call.
	g := acpFold(t, acpPrompt1, readCall("toolu_1", "pending"), readCall("toolu_1", "in_progress"), callDone("toolu_1"), acpEnd1)
	if n := len(g.Steps()); n != 1 {
		t.Errorf("an id announced twice in one turn made %d steps", n)
	}
}

// A session/load replays history as user messages without prompts: each
// user message begins a turn, so ids numbered per turn stay apart there
// too.
func TestACPToolCallIDsPerReplayedTurn(t *testing.T) {
	f := acpFold(t,
		chunk("user_message_chunk", "first", ""), readCall("toolu_1", "pending"), callDone("toolu_1"),
		chunk("agent_message_chunk", "done", ""),
		chunk("user_message_chunk", "second", ""), readCall("toolu_1", "pending"), callDone("toolu_1"),
	)
	if n := len(f.Steps()); n != 2 {
		t.Fatalf("%d steps, want 2", n)
	}
}

// A prompt the agent sends back as user message chunks shows once, whole
// or in pieces; a user message that says something else still shows.
func TestACPPromptEchoShownOnce(t *testing.T) {
	users := func(lines ...string) (n int) {
		for _, s := range itemsOf(acpFold(t, lines...)) {
			if len(s) > 12 && s[:12] == "message/user" {
				n++
			}
		}
		return n
	}
	if n := users(acpPrompt1, chunk("user_message_chunk", "fix it", ""), chunk("agent_message_chunk", "ok", ""), acpEnd1); n != 1 {
		t.Errorf("the echoed prompt shows %d times", n)
	}
	if n := users(acpPrompt1, chunk("user_message_chunk", "fix", ""), chunk("user_message_chunk", " it", ""), acpEnd1); n != 1 {
		t.Errorf("the prompt echoed in pieces shows %d times", n)
	}
	if n := users(acpPrompt1, chunk("user_message_chunk", "something else", ""), acpEnd1); n != 2 {
		t.Errorf("a user message that is no echo shows %d user messages, want 2", n)
	}
	if n := users(acpPrompt1, chunk("agent_message_chunk", "ok", ""), chunk("user_message_chunk", "fix it", ""), acpEnd1); n != 2 {
		t.Errorf("the prompt's text after the agent spoke shows %d user messages, want 2", n)
	}
}
