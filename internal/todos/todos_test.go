package todos

import "testing"

// Each agent's to-do tool reads as plan entries; other tools and other
// arguments do not.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		tool, args string
		want       []Entry
		ok         bool
	}{
		{"TodoWrite", `{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"Fix","status":"in_progress"}]}`,
			[]Entry{{"Read", "completed"}, {"Fix", "in_progress"}}, true},
		{"update_plan", `{"explanation":"x","plan":[{"step":"Test","status":"pending"}]}`, []Entry{{"Test", "pending"}}, true},
		{"write_todos", `{"todos":[{"description":"Ship","status":"cancelled"}]}`, []Entry{{"Ship", "cancelled"}}, true},
		{"TodoWrite", `{"todos":[]}`, []Entry{}, true},
		{"TodoWrite", `not json`, nil, false},
		{"TodoWrite", `{"other":1}`, nil, false},
		{"Bash", `{"todos":[{"content":"x","status":"pending"}]}`, nil, false},
	} {
		got, ok := Plan(tc.tool, []byte(tc.args))
		if ok != tc.ok || len(got) != len(tc.want) {
			t.Errorf("%s %s: %v %v, want %v %v", tc.tool, tc.args, got, ok, tc.want, tc.ok)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s entry %d: %v, want %v", tc.tool, i, got[i], tc.want[i])
			}
		}
	}
}

// FuzzPlan: any arguments, never a panic, never more than MaxEntries.
func FuzzPlan(f *testing.F) {
	f.Add("TodoWrite", []byte(`{"todos":[{"content":"a","status":"pending"}]}`))
	f.Add("update_plan", []byte(`{"plan":[{"step":"a","status":"done"}]}`))
	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		if got, _ := Plan(tool, args); len(got) > MaxEntries {
			t.Fatalf("%d entries", len(got))
		}
	})
}
