package otel_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// A tool decision and its result that come in different requests, in
// either order, are one step, finished, labelled with the command the
// result's tool_parameters name: whether both name the call
// (tool_use_id), neither does (as Claude Code sends them), or only one.
// No step is left pending for the decision.
func TestDecisionAndResultInTwoRequests(t *testing.T) {
	for _, ids := range []struct {
		name             string
		decision, result []any
	}{
		{"neither names the call", nil, nil},
		{"both name it", []any{"tool_use_id", "toolu_1"}, []any{"tool_use_id", "toolu_1"}},
		{"only the result", nil, []any{"tool_use_id", "toolu_1"}},
		{"only the decision", []any{"tool_use_id", "toolu_1"}, nil},
	} {
		decision := ccTimed(1300, "prompt-a", "tool_decision", append([]any{"tool_name", "Bash", "decision", "accept", "source", "config"}, ids.decision...)...)
		result := ccTimed(4300, "prompt-a", "tool_result", append([]any{"tool_name", "Bash", "success", "true", "duration_ms", "2990",
			"tool_parameters", `{"bash_command":"go","full_command":"go test ./..."}`}, ids.result...)...)
		prompt := ccTimed(0, "prompt-a", "user_prompt", "prompt_length", "19")
		for _, order := range [][]logSpec{{prompt, decision, result}, {prompt, result, decision}, {result, decision, prompt}} {
			tr := otel.New(otel.Options{})
			var batches [][]model.Record
			for _, rec := range order {
				tr.AddLogs(logs(ccResource, rec))
				batches = append(batches, tr.Flush())
			}
			ts := foldAll(t, batches...)
			th := otlptest.Thread(t, ts, "claude-code/dev1/5f0c2f9e-sess")
			steps := th.Fold.Steps()
			if len(steps) != 1 || steps[0].Status != model.StatusCompleted || steps[0].Label() != "Ran command · go test ./..." {
				for _, s := range steps {
					t.Logf("step %s %s %q", s.ToolCallID, s.Status, s.Label())
				}
				t.Errorf("%s, %s first: %d steps, want the one completed", ids.name, order[1].body, len(steps))
			}
			if p := items(th, model.ItemActivity); len(p) != 1 || p[0].Name != "permission" {
				t.Errorf("%s, %s first: rows %+v, want one permission row", ids.name, order[1].body, p)
			}
		}
	}
}

// Two calls of one tool, decided and run one after the other, whose
// halves come one per request in any order, are two steps, each with its
// own command.
func TestSameToolTwiceJoinsByTime(t *testing.T) {
	specs := []logSpec{
		ccTimed(0, "p", "user_prompt", "prompt", "build and test"),
		ccTimed(1000, "p", "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config"),
		ccTimed(3000, "p", "tool_result", "tool_name", "Bash", "success", "true", "duration_ms", "1990",
			"tool_parameters", `{"full_command":"go build ./..."}`),
		ccTimed(3010, "p", "tool_decision", "tool_name", "Bash", "decision", "accept", "source", "config"),
		ccTimed(9000, "p", "tool_result", "tool_name", "Bash", "success", "false", "duration_ms", "5985", "error", "exit 1",
			"tool_parameters", `{"full_command":"go test ./..."}`),
	}
	checkBatching(t, telemetry{n: len(specs), send: func(tr *otel.Translator, recs []int) {
		var req []logSpec
		for _, i := range recs {
			req = append(req, specs[i])
		}
		tr.AddLogs(logs(ccResource, req...))
	}}, 0)
	tr := otel.New(otel.Options{})
	tr.AddLogs(logs(ccResource, specs...))
	ts := foldAll(t, tr.Flush())
	s := ts.List()[0].Fold.Steps()
	if len(s) != 2 || s[0].Label() != "Ran command · go build ./..." || s[1].Label() != "Command failed · go test ./..." {
		t.Fatalf("steps %+v", s)
	}
}
