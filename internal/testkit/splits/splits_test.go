package splits

import (
	"slices"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// A short log is cut everywhere; a long one at its ends, at the stride,
// and around each mark, in order and once each.
func TestPoints(t *testing.T) {
	if got := Points(3); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Points(3) = %v", got)
	}
	if got := Points(All()); len(got) != All()+1 {
		t.Errorf("a log of %d records is cut at %d points, want every one", All(), len(got))
	}
	n := All() + 100
	got := Points(n, 0, 50, 51, n)
	for _, k := range []int{0, 1, 49, 50, 51, 52, Stride(), 2 * Stride(), n - 1, n} {
		if !slices.Contains(got, k) {
			t.Errorf("Points(%d, …) lacks %d: %v", n, k, got)
		}
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) || got[0] != 0 || got[len(got)-1] != n {
		t.Errorf("Points(%d, …) = %v, want 0…%d sorted and once each", n, got, n)
	}
	if len(got) > n/Stride()+12 {
		t.Errorf("Points(%d, …) gives %d points", n, len(got))
	}
}

// Firsts marks the point after the first record of each kind.
func TestFirsts(t *testing.T) {
	var recs []model.Record
	for _, raw := range []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"CUSTOM","name":"a","value":1}`,
		`{"type":"CUSTOM","name":"b","value":2}`,
		`not json`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	} {
		recs = append(recs, model.Record{Event: agui.Decode([]byte(raw))})
	}
	if got := Firsts(recs); !slices.Equal(got, []int{1, 2, 4, 5}) {
		t.Errorf("Firsts = %v, want [1 2 4 5]", got)
	}
}
