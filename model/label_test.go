package model

import "testing"

// A title that begins with a verb of the step's category gives the label
// one verb, ours, in the step's tense, whatever the case and tense the
// agent used; a word that only starts like a verb stays.
func TestStepLabelOneVerb(t *testing.T) {
	two := 2
	run, done := StatusRunning, StatusCompleted
	for _, tc := range []struct {
		cat    Category
		title  string
		status Status
		want   string
	}{
		{CategoryExecute, "Run `echo` test command", run, "Running command · `echo` test command"},
		{CategoryExecute, "Run `echo` test command", done, "Ran command · `echo` test command"},
		{CategoryExecute, "run go test ./...", done, "Ran command · go test ./..."},
		{CategoryExecute, "Running: make", StatusPending, "Running command · make"},
		{CategoryExecute, "RAN make", done, "Ran command · make"},
		{CategoryExecute, "Execute make", done, "Ran command · make"},
		{CategoryExecute, "Run", done, "Ran command"},
		{CategoryExecute, "Runner setup", done, "Ran command · Runner setup"},
		{CategoryExecute, "`go test ./...`", done, "Ran command · `go test ./...`"},
		{CategoryFetch, "Fetch https://example.com/a", run, "Fetching · https://example.com/a"},
		{CategoryFetch, "Fetch https://example.com/a", done, "Fetched · https://example.com/a"},
		{CategoryFetch, "Download https://example.com/a", StatusFailed, "Fetch failed · https://example.com/a"},
		{CategoryRead, "Read README.md", done, "Read · README.md"},
		{CategoryRead, "Reading README.md", run, "Reading · README.md"},
		{CategoryRead, "Readme check", done, "Read · Readme check"},
		{CategoryEdit, "Edit main.go", done, "Edited · main.go"},
		{CategoryEdit, "Write NOTES.md", run, "Editing · NOTES.md"},
		{CategoryEdit, "Create NOTES.md", StatusCancelled, "Edit cancelled · NOTES.md"},
		{CategorySearch, "Search for TODO", done, "Searched · TODO"},
		{CategorySearch, "searching TODO", run, "Searching · TODO"},
		{CategorySearch, `grep "ParseLength"`, done, `Searched · "ParseLength"`},
		{CategorySearch, "Find `*.go`", done, "Searched · `*.go`"},
		{CategoryMove, "Move old test data", done, "Moved · old test data"},
		{CategoryMove, "Rename a.go", run, "Moving · a.go"},
		{CategoryDelete, "Delete build/old.log", StatusFailed, "Delete failed · build/old.log"},
		{CategoryDelete, "Remove build", done, "Deleted · build"},
		{CategoryDelete, "rm -rf build", done, "Deleted · rm -rf build"},
		{CategoryThink, "Think about the flaky test", done, "Thought · the flaky test"},
		{CategoryThink, "Thinking", run, "Thinking"},
		{CategorySwitchMode, "Switch to plan mode", done, "Switched mode · plan mode"},
		{CategorySwitchMode, "switching mode to code", run, "Switching mode · code"},
		{CategorySwitchMode, "Enter plan mode", done, "Switched mode · plan mode"},
		// Other has no verb of ours: the agent's words stay whole.
		{CategoryOther, "Run the linter", done, "Run the linter"},
	} {
		s := Step{Category: tc.cat, Title: tc.title, Status: tc.status, ToolName: "tool"}
		if got := s.Label(); got != tc.want {
			t.Errorf("%s %s %q: %q, want %q", tc.cat, tc.status, tc.title, got, tc.want)
		}
	}
	s := Step{Category: CategoryExecute, Title: "Run `make`", Status: StatusFailed, ExitCode: &two}
	if got := s.Label(); got != "Command failed (exit 2) · `make`" {
		t.Errorf("failed command: %q", got)
	}
}

// A search says what it looked for, not the first match its locations
// name; a move says where it moved to.
func TestStepLabelSearchAndMove(t *testing.T) {
	match := []Location{{Path: "/w/a.go", Line: 3}, {Path: "/w/b.go", Line: 9}}
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Category: CategorySearch, Title: "Search for TODO", Pattern: "TODO", Location: "/w/a.go:3", Locations: match, Status: StatusCompleted}, "Searched · TODO"},
		{Step{Category: CategorySearch, Title: "Search for TODO", Location: "/w/a.go:3", Locations: match, Status: StatusCompleted}, "Searched · TODO"},
		{Step{Category: CategorySearch, Pattern: "TODO", Status: StatusRunning}, "Searching · TODO"},
		{Step{Category: CategorySearch, Location: "TODO", Status: StatusCompleted}, "Searched · TODO"},
		{Step{Category: CategoryMove, Title: "Move util.go", Location: "/w/util.go:1",
			Locations: []Location{{Path: "/w/util.go", Line: 1}, {Path: "/w/internal/util.go", Line: 1}}, Status: StatusCompleted}, "Moved · /w/util.go → internal/util.go"},
		{Step{Category: CategoryMove, Location: "/w/a.go",
			Locations: []Location{{Path: "/w/a.go"}, {Path: "/elsewhere/a.go"}}, Status: StatusRunning}, "Moving · /w/a.go → /elsewhere/a.go"},
		{Step{Category: CategoryMove, Location: "a.go", Destination: "b.go", Status: StatusCompleted}, "Moved · a.go → b.go"},
		{Step{Category: CategoryMove, Title: "Move it", Destination: "/w/b.go", Status: StatusCompleted}, "Moved · to /w/b.go"},
		{Step{Category: CategoryMove, Title: "Move it", Status: StatusFailed}, "Move failed · it"},
	} {
		if got := tc.s.Label(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

// A permission request asks for the step in the agent's words, else in
// ours.
func TestStepAction(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Category: CategoryExecute, Title: "Run `rm -rf build`", Status: StatusPending}, "Run `rm -rf build`"},
		{Step{Category: CategoryDelete, Location: "/w/build", Status: StatusPending}, "Delete /w/build"},
		{Step{Category: CategoryMove, Location: "/w/a.go", Destination: "/w/b.go", Status: StatusPending}, "Move /w/a.go → b.go"},
		{Step{Category: CategoryEdit, Status: StatusPending}, "Edit"},
		{Step{Category: CategoryOther, ToolName: "shot", Status: StatusPending}, "Use shot"},
		{Step{Category: CategoryOther, Status: StatusPending}, ""},
	} {
		if got := tc.s.Action(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

// A change that made new files only reads "Created"; one that changed a
// file, or is still running, does not.
func TestCreatedLabel(t *testing.T) {
	empty := ""
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Category: CategoryEdit, Status: StatusCompleted, Location: "a.go", Diffs: []Diff{{Path: "a.go", NewText: "x"}}}, "Created · a.go"},
		{Step{Category: CategoryEdit, Status: StatusCompleted, Location: "a.go", Diffs: []Diff{{Path: "a.go", OldText: &empty, NewText: "x"}}}, "Edited · a.go"},
		{Step{Category: CategoryEdit, Status: StatusCompleted, Location: "a.go", Result: "--- /dev/null\n+++ b/a.go\n@@ -0,0 +1,1 @@\n+x"}, "Created · a.go"},
		{Step{Category: CategoryEdit, Status: StatusCompleted, Location: "a.go", Result: "--- a/a.go\n+++ b/a.go"}, "Edited · a.go"},
		{Step{Category: CategoryEdit, Status: StatusRunning, Location: "a.go", Diffs: []Diff{{Path: "a.go", NewText: "x"}}}, "Editing · a.go"},
	} {
		if got := tc.s.Label(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
