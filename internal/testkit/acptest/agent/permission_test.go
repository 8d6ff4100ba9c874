package agent_test

import (
	"context"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

// finalStatus is the last status the agent gave a tool call, "" if none.
func finalStatus(notes []acp.SessionNotification, id acp.ToolCallId) acp.ToolCallStatus {
	var st acp.ToolCallStatus
	for _, n := range notes {
		if tc := n.Update.ToolCall; tc != nil && tc.ToolCallId == id {
			st = tc.Status
		}
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == id && u.Status != nil {
			st = *u.Status
		}
	}
	return st
}

func TestPermissionAnswers(t *testing.T) {
	cases := []struct {
		name       string
		outcome    acp.RequestPermissionOutcome
		wantStop   acp.StopReason
		wantStatus acp.ToolCallStatus
	}{
		{"allow once", acp.NewRequestPermissionOutcomeSelected(agent.OptionAllowOnce), acp.StopReasonEndTurn, acp.ToolCallStatusCompleted},
		{"allow always", acp.NewRequestPermissionOutcomeSelected(agent.OptionAllowAlways), acp.StopReasonEndTurn, acp.ToolCallStatusCompleted},
		{"reject once", acp.NewRequestPermissionOutcomeSelected(agent.OptionRejectOnce), acp.StopReasonEndTurn, acp.ToolCallStatusFailed},
		{"reject always", acp.NewRequestPermissionOutcomeSelected(agent.OptionRejectAlways), acp.StopReasonEndTurn, acp.ToolCallStatusFailed},
		{"cancelled", acp.NewRequestPermissionOutcomeCancelled(), acp.StopReasonCancelled, acp.ToolCallStatusPending},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, agent.Options{}, richCaps)
			h.client.answerPermissions(func(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
				return acp.RequestPermissionResponse{Outcome: tc.outcome}, nil
			})
			id, _ := h.newSession()
			if got := h.prompt(id, "permission"); got != tc.wantStop {
				t.Errorf("stopReason = %q, want %q", got, tc.wantStop)
			}
			if got := finalStatus(h.rec.notesFor(id), agent.PermissionToolCallID); got != tc.wantStatus {
				t.Errorf("tool call status = %q, want %q", got, tc.wantStatus)
			}
		})
	}
}

// TestCancelWhilePermissionPending: session/cancel ends the turn with
// `cancelled`, and the agent withdraws its permission request (the SDK
// sends $/cancel_request, which cancels the client handler's context).
func TestCancelWhilePermissionPending(t *testing.T) {
	h := start(t, agent.Options{}, richCaps)
	asked := make(chan struct{})
	withdrawn := make(chan struct{})
	h.client.answerPermissions(func(ctx context.Context, _ acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
		close(asked)
		<-ctx.Done()
		close(withdrawn)
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
	})
	id, _ := h.newSession()
	stop := make(chan acp.StopReason, 1)
	go func() {
		resp, err := h.conn.Prompt(context.Background(), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("all")}})
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		stop <- resp.StopReason
	}()
	waitClosed(t, asked, "the permission request")
	if err := h.conn.Cancel(ctx(t), acp.CancelNotification{SessionId: id}); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if got := recv(t, stop, "the prompt response"); got != acp.StopReasonCancelled {
		t.Errorf("stopReason = %q, want cancelled", got)
	}
	waitClosed(t, withdrawn, "$/cancel_request for the permission request")
}
