package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/sources"
)

// A delete whose permission the user rejected or cancelled prints as
// cancelled, never completed and never running, also when the agent says
// completed after or leaves the call open until the turn ends.
func TestPlainRefusedPermission(t *testing.T) {
	const head = `{"t":1764500000000,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"clean up"}]}}}
{"t":1764500000100,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"rm -rf /","kind":"delete","status":"pending"}}}}
{"t":1764500000200,"dir":"recv","msg":{"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t1"},"options":[{"optionId":"ok","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}}
`
	const (
		reject    = `{"t":1764500001200,"dir":"send","msg":{"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"selected","optionId":"no"}}}}` + "\n"
		cancel    = `{"t":1764500001200,"dir":"send","msg":{"jsonrpc":"2.0","id":"perm-1","result":{"outcome":{"outcome":"cancelled"}}}}` + "\n"
		completed = `{"t":1764500001300,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}}` + "\n"
		endTurn   = `{"t":1764500001400,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}}` + "\n"
	)
	for name, tc := range map[string]struct{ log, answer string }{
		"rejected":                  {head + reject + endTurn, "rejected"},
		"rejected, then completed":  {head + reject + completed + endTurn, "rejected"},
		"cancelled":                 {head + cancel + endTurn, "cancelled"},
		"cancelled, then completed": {head + cancel + completed + endTurn, "cancelled"},
	} {
		t.Run(name, func(t *testing.T) {
			recs, err := sources.ReadACPRecording(strings.NewReader(tc.log))
			if err != nil {
				t.Fatal(err)
			}
			for _, oneByOne := range []bool{true, false} {
				want := []string{
					"run 1 started",
					"you: clean up",
					"step 1 delete pending · Deleting · rm -rf /",
					"permission · rm -rf /? · waiting for you: Allow, Reject",
					"step 1 delete cancelled · Delete cancelled · rm -rf / · 1.1s",
					"permission · rm -rf /? · " + tc.answer,
					"run 1 completed (end_turn)",
				}
				if !oneByOne { // seen only as it ended: no pending or waiting line
					want = slices.Delete(want, 2, 4)
				}
				got := printPlain(t, recs, oneByOne)
				if !slices.Equal(got, want) {
					t.Errorf("one by one %v:\n%s\nwant\n%s", oneByOne, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}
