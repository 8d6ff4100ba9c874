package fold_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// A step whose permission the user rejected or cancelled did not run: it is
// cancelled (failed when the agent says so) and never completed, whatever
// the agent reports after and however the turn ends.
func TestACPRefusedPermission(t *testing.T) {
	const (
		call    = `{"sessionUpdate":"tool_call","toolCallId":"t1","title":"rm -rf /","kind":"delete","status":"pending"}`
		ask     = `recv {"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"},{"optionId":"never","name":"Always reject","kind":"reject_always"}]}}`
		askMore = `recv {"jsonrpc":"2.0","id":"perm-2","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"}]}}`
		reject  = `send {"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"no"}}}`
		never   = `send {"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"never"}}}`
		cancel  = `send {"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"cancelled"}}}`
		allow   = `send {"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`
		allow2  = `send {"jsonrpc":"2.0","id":"perm-2","result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`
	)
	status := func(s string) string {
		return upd(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"` + s + `"}`)
	}
	for _, tt := range []struct {
		name    string
		lines   []string
		want    model.Status
		refused bool
	}{
		{"rejected, nothing after, end_turn", []string{reject, acpEnd1}, model.StatusCancelled, true},
		{"rejected always", []string{never, acpEnd1}, model.StatusCancelled, true},
		{"rejected, agent says completed", []string{reject, status("completed"), acpEnd1}, model.StatusCancelled, true},
		{"rejected, agent says in progress", []string{reject, status("in_progress"), acpEnd1}, model.StatusCancelled, true},
		{"rejected, agent says failed", []string{reject, status("failed"), acpEnd1}, model.StatusFailed, true},
		{"cancelled, end_turn", []string{cancel, acpEnd1}, model.StatusCancelled, true},
		{"cancelled, agent says completed", []string{cancel, status("completed"), acpEnd1}, model.StatusCancelled, true},
		{"allowed, completed", []string{allow, status("in_progress"), status("completed"), acpEnd1}, model.StatusCompleted, false},
		{"rejected, asked again, allowed", []string{reject, askMore, allow2, status("completed"), acpEnd1}, model.StatusCompleted, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := append([]string{acpPrompt1, upd(call), ask}, tt.lines...)
			f := acpFold(t, lines...)
			s := f.Steps()[0]
			if s.Status != tt.want || s.Refused != tt.refused {
				t.Fatalf("step %s refused %v, want %s refused %v", s.Status, s.Refused, tt.want, tt.refused)
			}
			if tt.want != model.StatusCompleted && strings.Contains(s.Label(), "Deleted") {
				t.Errorf("label %q reads as done", s.Label())
			}
			for _, it := range f.Items() {
				if it.Kind == model.ItemToolCall && it.Status != tt.want {
					t.Errorf("the step's item is %s, want %s", it.Status, tt.want)
				}
			}
			// The refusal survives a checkpoint: folding on from one
			// gives the same.
			recs := acpLog(lines...)
			for k := 1; k < len(recs); k++ {
				a := fold.New(fold.Options{})
				if _, err := a.Apply(recs[:k]...); err != nil {
					t.Fatal(err)
				}
				b := throughJSON(t, a)
				if _, err := b.Apply(recs[k:]...); err != nil {
					t.Fatal(err)
				}
				if got := b.Steps()[0]; got.Status != tt.want || got.Refused != tt.refused {
					t.Fatalf("restored at %d: step %s refused %v", k, got.Status, got.Refused)
				}
			}
		})
	}
}
