package equiv_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

func records(t *testing.T, lines ...string) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader([]byte(strings.Join(lines, "\n"))))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

const (
	rs   = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	rf   = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	sm1  = `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`
	em1  = `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`
	sm2  = `{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`
	em2  = `{"type":"TEXT_MESSAGE_END","messageId":"m2"}`
	snap = `{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}`
)

// TestCompare: the check finds each way a log can break the laws, and
// accepts a log that folds the same.
func TestCompare(t *testing.T) {
	in := records(t, rs, sm1, em1, sm2, em2, snap, rf)
	tests := []struct {
		name string
		out  []string
		want string // "" means no error
	}{
		{"same events", []string{rs, sm1, em1, sm2, em2, snap, rf}, ""},
		{"crossing streams fold the same", []string{rs, sm1, sm2, em1, em2, snap, rf}, ""},
		{"messages swapped", []string{rs, sm2, em2, sm1, em1, snap, rf}, "messages differ: message 0"},
		{"state lost", []string{rs, sm1, em1, sm2, em2, rf}, "state differs"},
		{"no longer verifies", []string{rs, sm1, em1, rf, sm2, em2, snap}, "the input verifies but the output does not"},
	}
	judge := equiv.Against(in)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := judge(records(t, tt.out...))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestLegacyIDs: ids minted for THINKING_* events after their place in the
// log compare equal when only that place differs.
func TestLegacyIDs(t *testing.T) {
	ts := `{"type":"THINKING_TEXT_MESSAGE_START"}`
	tc := `{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"hm"}`
	te := `{"type":"THINKING_TEXT_MESSAGE_END"}`
	custom := `{"type":"CUSTOM","name":"x","value":1}`
	a := equiv.Fold(records(t, rs, ts, tc, te, rf))
	b := equiv.Fold(records(t, rs, custom, ts, tc, te, rf))
	if err := a.Compare(b); err != nil {
		t.Errorf("minted ids not renamed: %v", err)
	}
}
