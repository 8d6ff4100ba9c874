package fold_test

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// Every verifier rule (R1–R14 of @ag-ui/client verifyEvents) is reported with its id, at
// the event that broke it, and the fold goes on.
func TestEveryRuleIsReported(t *testing.T) {
	const rs = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	const rf = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	tests := []struct {
		rule fold.Rule
		seq  uint64
		text string
		log  []string
	}{
		{fold.RuleFirstEvent, 1, "First event must be 'RUN_STARTED'", []string{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`}},
		{fold.RuleAfterError, 3, "already errored", []string{rs, `{"type":"RUN_ERROR","message":"x"}`, `{"type":"CUSTOM","name":"n","value":1}`}},
		{fold.RuleAfterFinish, 3, "already finished", []string{rs, rf, `{"type":"CUSTOM","name":"n","value":1}`}},
		{fold.RuleRunActive, 2, "while a run is still active", []string{rs, rs}},
		{fold.RuleTextOpen, 3, "already in progress", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}},
		{fold.RuleTextNotOpen, 2, "No active text message", []string{rs, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`}},
		{fold.RuleToolCall, 2, "No active tool call", []string{rs, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}`}},
		{fold.RuleToolCall, 3, "already in progress", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`}},
		{fold.RuleReasoning, 2, "No active reasoning span", []string{rs, `{"type":"REASONING_END","messageId":"s"}`}},
		{fold.RuleReasoning, 3, "reasoning message with ID 'x' is already in progress", []string{rs, `{"type":"REASONING_MESSAGE_START","messageId":"x","role":"reasoning"}`, `{"type":"REASONING_MESSAGE_START","messageId":"x","role":"reasoning"}`}},
		{fold.RuleStepActive, 3, `Step "s" is already active`, []string{rs, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s"}`}},
		{fold.RuleStepNotStarted, 2, "that was not started", []string{rs, `{"type":"STEP_FINISHED","stepName":"s"}`}},
		{fold.RuleStepNotStarted, 4, "must be finished by whoever started it", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_FINISHED","stepName":"s"}`}},
		{fold.RuleFinishOpen, 3, "while steps are still active: s", []string{rs, `{"type":"STEP_STARTED","stepName":"s"}`, rf}},
		{fold.RuleFinishOpen, 3, "while tool calls are still active: c", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, rf}},
		{fold.RuleFinishOpen, 3, "while subagents are still active: a", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`, rf}},
		{fold.RuleNullField, 2, "'subagentRunId: null'", []string{rs, `{"type":"CUSTOM","name":"n","value":1,"subagentRunId":null}`}},
		{fold.RuleNullField, 2, "a message (id 'u')", []string{rs, `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"x","subagentRunId":null}]}`}},
		{fold.RuleSubagent, 2, "no active subagent found with ID 'a'", []string{rs, `{"type":"SUBAGENT_FINISHED","subagentRunId":"a"}`}},
		{fold.RuleSubagent, 2, "without a 'name'", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a"}`}},
		{fold.RuleSubagent, 4, "cannot be reused", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"a"}`, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`}},
		{fold.RuleSubagent, 2, "parentSubagentRunId 'p' has not been started", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n","parentSubagentRunId":"p"}`}},
		{fold.RuleSubagent, 3, "outcome type 'weird'", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"a","outcome":{"type":"weird"}}`}},
		{fold.RuleOwnership, 4, "does not match the message 'm' opener's subagent", []string{rs, `{"type":"SUBAGENT_STARTED","subagentRunId":"a","name":"n"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"a"}`}},
		{fold.RuleOwnership, 3, "A tool call belongs to the message that carries it", []string{rs, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","subagentRunId":"z"}`}},
		{fold.RuleMalformed, 2, "missing required", []string{rs, `{"type":"TOOL_CALL_START","toolCallId":"c"}`}},
		{fold.RuleChunk, 2, "must have a messageId", []string{rs, `{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`}},
		{fold.RuleUnreadable, 2, "not a JSON object", []string{rs, `{"type":"RUN_ERROR",`}},
	}
	for _, tt := range tests {
		t.Run(string(tt.rule)+"/"+tt.text, func(t *testing.T) {
			f := fold.New(fold.Options{})
			f.Apply(log(tt.log...)...)
			d := f.Diagnostics()
			if len(d) == 0 {
				t.Fatal("no diagnostic")
			}
			if d[0].Rule != tt.rule || d[0].Seq != tt.seq || !strings.Contains(d[0].Message, tt.text) {
				t.Fatalf("first diagnostic %+v, want rule %s at #%d containing %q", d[0], tt.rule, tt.seq, tt.text)
			}
			// The fold goes on: a fresh run afterwards is applied.
			u, _ := f.Apply(log(`{"type":"RUN_ERROR","message":"end"}`, `{"type":"RUN_STARTED","threadId":"t","runId":"later"}`)...)
			if len(f.Runs()) == 0 || f.Runs()[len(f.Runs())-1].RunID != "later" {
				t.Fatalf("fold stopped after the diagnostic: %+v", u)
			}
		})
	}
}
