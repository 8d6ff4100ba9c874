package fold_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// A permission item asks in the agent's words (or ours, when the request
// and its tool call have no title) and records the answer in words, by
// the kind of the option chosen; an option of a kind ACP does not define
// is named.
func TestACPPermissionWords(t *testing.T) {
	const options = `"options":[{"optionId":"o1","name":"Allow","kind":"allow_once"},{"optionId":"o2","name":"Always","kind":"allow_always"},` +
		`{"optionId":"o3","name":"Reject","kind":"reject_once"},{"optionId":"o4","name":"Never","kind":"reject_always"},{"optionId":"plan","name":"Keep planning","kind":"_plan"}]`
	ask := func(toolCall string) string {
		return `recv {"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s","toolCall":` + toolCall + `,` + options + `}}`
	}
	answer := func(outcome string) string {
		return `send {"jsonrpc":"2.0","id":"p1","result":{"outcome":` + outcome + `}}`
	}
	for _, tc := range []struct {
		name, toolCall, outcome string
		question, text          string
		status                  model.Status
	}{
		{"allow once", `{"toolCallId":"t1","title":"Run ` + "`rm -rf build`" + `","kind":"execute"}`, `{"outcome":"selected","optionId":"o1"}`,
			"Run `rm -rf build`", model.AnswerAllowedOnce, model.StatusCompleted},
		{"allow always", `{"toolCallId":"t1","kind":"delete","locations":[{"path":"/w/build"}]}`, `{"outcome":"selected","optionId":"o2"}`,
			"Delete /w/build", model.AnswerAllowedAlways, model.StatusCompleted},
		{"reject", `{"toolCallId":"t1","kind":"edit","locations":[{"path":"/w/a.go","line":3}]}`, `{"outcome":"selected","optionId":"o3"}`,
			"Edit /w/a.go:3", model.AnswerRejected, model.StatusCompleted},
		{"reject always", `{"toolCallId":"t1","kind":"move","locations":[{"path":"/w/a.go"},{"path":"/w/b.go"}]}`, `{"outcome":"selected","optionId":"o4"}`,
			"Move /w/a.go → b.go", model.AnswerRejectedAlways, model.StatusCompleted},
		{"another kind", `{"toolCallId":"t1","title":"Ready to code?","kind":"switch_mode"}`, `{"outcome":"selected","optionId":"plan"}`,
			"Ready to code?", "chose Keep planning", model.StatusCompleted},
		{"cancelled", `{"toolCallId":"t1","title":"Fetch https://x.test"}`, `{"outcome":"cancelled"}`,
			"Fetch https://x.test", "cancelled", model.StatusCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := acpFold(t, acpPrompt1, ask(tc.toolCall))
			it := f.Items()[len(f.Items())-1]
			if it.Kind != model.ItemPermission || it.Status != model.StatusOpen || it.Name != tc.question {
				t.Fatalf("waiting: %s %s %q, want a permission open asking %q", it.Kind, it.Status, it.Name, tc.question)
			}
			f.Apply(acpLog(acpPrompt1, ask(tc.toolCall), answer(tc.outcome))[2:]...)
			it = f.Items()[len(f.Items())-1]
			if it.Status != tc.status || it.Text != tc.text {
				t.Errorf("answered: %s %q, want %s %q", it.Status, it.Text, tc.status, tc.text)
			}
		})
	}
}
