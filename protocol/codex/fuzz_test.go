package codex_test

import (
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

// FuzzTranslate feeds arbitrary bytes as a rollout: the translation never
// panics, every record has an event, and the fold of what it makes breaks
// none of AG-UI's rules but where the input itself said nothing readable.
func FuzzTranslate(f *testing.F) {
	f.Add(readFixture(f))
	f.Add([]byte(`{"timestamp":"2026-02-23T11:54:52.352Z","type":"response_item","payload":{"type":"function_call_output","call_id":"x","output":"Process exited with code 2\nOutput:\n"}}`))
	f.Add([]byte(`{"timestamp":"x","type":"event_msg","payload":{"type":"turn_aborted"}}` + "\n" + `{"type":"world_state","payload":{}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"p","input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		translaws.FoldsClean(t, translaws.Translate(codex.New(), b))
	})
}

// FuzzSubagentLines feeds arbitrary lines as a spawned child's rollout,
// between a session's spawn call and the end of its turn: nothing panics,
// and the fold of what is made breaks none of AG-UI's rules.
func FuzzSubagentLines(f *testing.F) {
	f.Add(readChild(f))
	f.Add([]byte(`{"timestamp":"2026-02-23T12:00:02.200Z","type":"event_msg","payload":{"type":"task_complete"}}` + "\n" +
		`{"timestamp":"2026-02-23T12:00:02.300Z","type":"response_item","payload":{"type":"function_call","name":"spawn_agent","call_id":"n"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"n","output":"{\"agent_id\":\"k\"}"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr := codex.New()
		recs := tr.Write([]byte(spawnSession))
		kid := codex.Subagent{ID: "k", Parent: "p", Depth: 1}
		for _, ln := range lines(b) {
			recs = append(recs, tr.SubagentLine(kid, ln)...)
		}
		recs = append(recs, tr.Write([]byte(`{"timestamp":"2026-02-23T12:09:00.000Z","type":"event_msg","payload":{"type":"task_complete"}}`+"\n"))...)
		fl := fold.New(fold.Options{})
		for i := range recs {
			if recs[i].Event == nil {
				t.Fatalf("record %d has no event", i)
			}
			recs[i].Seq = uint64(i + 1)
		}
		if _, err := fl.Apply(recs...); err != nil {
			t.Fatal(err)
		}
		for _, d := range fl.Diagnostics() {
			t.Fatalf("diagnostic: %+v", d)
		}
	})
}
