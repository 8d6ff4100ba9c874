package fold_test

import (
	"strings"
	"testing"
)

// A search keeps saying what it looked for when an update finishes it
// with its matches as locations and no title or input; a title an update
// blanks stays; and what the label says survives shedding the input.
func TestACPSearchKeepsPattern(t *testing.T) {
	f := acpFold(t, acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"s1","title":"Search for TODO","kind":"search","status":"in_progress","rawInput":{"path":"/w","pattern":"TODO"}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"s1","status":"completed","locations":[{"path":"/w/main.go","line":12},{"path":"/w/README.md","line":7}],`+
			`"content":[{"type":"content","content":{"type":"text","text":"2 matches"}}],"rawOutput":{"matches":2}}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"s2","title":"grep \"ParseLength\"","kind":"search","status":"in_progress"}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"s2","status":"completed","title":"","rawInput":null,"locations":[{"path":"/w/length.go","line":20}]}`),
		acpEnd1,
	)
	want := []string{"Searched · TODO", `Searched · "ParseLength"`}
	check := func(when string) {
		t.Helper()
		for i, s := range f.Steps() {
			if got := s.Label(); got != want[i] {
				t.Errorf("%s: step %d label %q, want %q", when, i, got, want[i])
			}
		}
	}
	check("folded")
	if p := f.Steps()[0].Pattern; p != "TODO" {
		t.Errorf("pattern %q", p)
	}
	if f.Trim(shedding(0, 0)).Shed.Steps != 2 || f.Steps()[0].ArgsJSON != nil {
		t.Fatal("the steps were not shed")
	}
	check("shed")
}

// A move says where to: from its two locations, or from its input when it
// has none.
func TestACPMoveDestination(t *testing.T) {
	f := acpFold(t, acpPrompt1,
		upd(`{"sessionUpdate":"tool_call","toolCallId":"m1","title":"Move util.go to internal/util/util.go","kind":"move","status":"in_progress",`+
			`"locations":[{"path":"/w/util.go","line":1},{"path":"/w/internal/util/util.go","line":1}]}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"m1","status":"completed"}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"m2","title":"Move old test data","kind":"move","status":"in_progress","rawInput":{"from":"/w/old.json","to":"/w/archive/old.json"}}`),
		upd(`{"sessionUpdate":"tool_call_update","toolCallId":"m2","status":"completed","rawOutput":{"moved":true}}`),
		upd(`{"sessionUpdate":"tool_call","toolCallId":"m3","title":"Rename","kind":"move","status":"pending","rawInput":{"destination":"/elsewhere/b.go"}}`),
	)
	want := []string{"Moved · /w/util.go → internal/util/util.go", "Moved · /w/old.json → archive/old.json", "Moving · to /elsewhere/b.go"}
	for i, s := range f.Steps() {
		if got := s.Label(); got != want[i] {
			t.Errorf("step %d label %q, want %q", i, got, want[i])
		}
		if strings.Contains(s.Label(), "Move ") {
			t.Errorf("step %d says its verb twice: %q", i, s.Label())
		}
	}
}
