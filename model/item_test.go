package model

import "testing"

func TestStepLabel(t *testing.T) {
	one := 1
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Category: CategoryRead, Location: "a.go", Status: StatusRunning}, "Reading · a.go"},
		{Step{Category: CategoryExecute, Status: StatusCompleted}, "Ran command"},
		{Step{Category: CategoryOther, ToolName: "shot", Status: StatusRunning}, "Using shot"},
		{Step{Category: CategoryOther, ToolName: "shot", Status: StatusFailed}, "shot failed"},
		{Step{Category: CategoryOther, ToolName: "shot", Title: "Screenshot", Status: StatusCancelled}, "Cancelled · Screenshot"},
		// A step that did not succeed never reads as if it had.
		{Step{Category: CategoryDelete, Location: "build", Status: StatusFailed}, "Delete failed · build"},
		{Step{Category: CategoryMove, Location: "a → b", Status: StatusCancelled}, "Move cancelled · a → b"},
		{Step{Category: CategoryExecute, Location: "make", Status: StatusFailed, ExitCode: &one}, "Command failed (exit 1) · make"},
		{Step{Category: CategoryExecute, Location: "make", Status: StatusFailed}, "Command failed · make"},
		// A title shows where the verb and location say less.
		{Step{Category: CategoryExecute, Title: "go test ./...", Status: StatusRunning}, "Running command · go test ./..."},
		{Step{Category: CategoryOther, ToolName: "shot", Title: "Screenshot of Tempo", Status: StatusCompleted}, "Screenshot of Tempo"},
		{Step{Category: CategoryEdit, Title: "Edit a.go", Location: "/w/a.go:3", Status: StatusCompleted}, "Edited · /w/a.go:3"},
	} {
		if got := tc.s.Label(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestLocationString(t *testing.T) {
	if s := (Location{Path: "/w/a.go", Line: 12}).String(); s != "/w/a.go:12" {
		t.Errorf("%q", s)
	}
	if s := (Location{Path: "/w/a.go"}).String(); s != "/w/a.go" {
		t.Errorf("%q", s)
	}
}
