package model

import "testing"

func TestStepLabel(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Category: CategoryRead, Location: "a.go", Status: StatusRunning}, "Reading · a.go"},
		{Step{Category: CategoryExecute, Status: StatusCompleted}, "Ran command"},
		{Step{Category: CategoryOther, ToolName: "shot", Status: StatusRunning}, "Using shot"},
		{Step{Category: CategoryOther, ToolName: "shot", Status: StatusFailed}, "Used shot"},
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
