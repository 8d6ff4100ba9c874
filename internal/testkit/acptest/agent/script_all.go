package agent

import (
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// UnknownKind is the `sessionUpdate` value of the update the `all` script
// sends that no ACP schema defines.
const UnknownKind = "fixture_unknown_kind"

// all streams every update kind (see the package documentation of
// internal/testkit/acptest for the order), asks one permission and ends with
// end_turn.
func (t *turn) all(string) (acp.StopReason, error) {
	const (
		pending  = acp.PlanEntryStatusPending
		running  = acp.PlanEntryStatusInProgress
		complete = acp.PlanEntryStatusCompleted
	)
	steps := []func() error{
		t.sessionInfo,
		func() error {
			return t.thought("The user wants to see every update kind. ",
				"I'll plan, call one tool of each kind, ", "then ask before editing config.yaml.")
		},
		func() error { return t.plan(running, pending, pending, pending) },
		func() error { return t.message("I'll walk through ", "every tool kind ", "and then summarise.") },
		t.toolKinds,
		func() error { return t.plan(complete, complete, running, pending) },
		t.ghostUpdate,
		t.usage,
		t.unknownKind,
		t.permissionEdit,
		func() error { return t.plan(complete, complete, complete, complete) },
		func() error {
			return t.message("Done: ten tool kinds, ", "one permission, ", "one update kind from the future.")
		},
		func() error {
			return t.send(acp.SessionUpdate{SessionInfoUpdate: &acp.SessionSessionInfoUpdate{UpdatedAt: acp.Ptr(t.now())}})
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return "", err
		}
	}
	return acp.StopReasonEndTurn, nil
}

// sessionInfo sends the session's title and last-activity time.
func (t *turn) sessionInfo() error {
	t.s.mu.Lock()
	title := t.s.title
	t.s.mu.Unlock()
	u := &acp.SessionSessionInfoUpdate{UpdatedAt: acp.Ptr(t.now())}
	if title != "" {
		u.Title = acp.Ptr(title)
	}
	return t.send(acp.SessionUpdate{SessionInfoUpdate: u})
}

func (t *turn) now() string { return t.f.opts.Now().UTC().Format(time.RFC3339) }

// plan sends the four-entry plan with the given statuses.
func (t *turn) plan(st ...acp.PlanEntryStatus) error {
	entries := []acp.PlanEntry{
		{Content: "Read the project and find the TODOs", Priority: acp.PlanEntryPriorityHigh},
		{Content: "Edit main.go and create NOTES.md", Priority: acp.PlanEntryPriorityHigh},
		{Content: "Run the tests", Priority: acp.PlanEntryPriorityMedium},
		{Content: "Raise retries in config.yaml (asks permission)", Priority: acp.PlanEntryPriorityLow},
	}
	for i := range entries {
		entries[i].Status = st[i]
	}
	return t.send(acp.UpdatePlan(entries...))
}

// ghostUpdate updates a tool call that was never announced, as agents
// replaying compressed history do.
func (t *turn) ghostUpdate() error {
	return t.send(acp.UpdateToolCall("tc-ghost",
		acp.WithUpdateTitle("Background indexing"),
		acp.WithUpdateKind(acp.ToolKindSearch),
		acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateContent([]acp.ToolCallContent{textContent("Indexed 128 files.")}),
	))
}

// usage reports context-window use and cost.
func (t *turn) usage() error {
	return t.send(acp.SessionUpdate{UsageUpdate: &acp.SessionUsageUpdate{
		Used: 48213, Size: 200000, Cost: &acp.Cost{Amount: 0.42, Currency: "USD"},
	}})
}

// unknownKind sends an update whose kind no schema defines. It carries a
// `content` field on purpose: the Go SDK's decoder then mistakes it for a
// user_message_chunk (keeping the raw kind string in SessionUpdate), the
// trap a client must avoid by dispatching on that string.
func (t *turn) unknownKind() error {
	return t.sendRaw(map[string]any{
		"sessionUpdate": UnknownKind,
		"content":       map[string]any{"type": "text", "text": "An update kind from a future ACP version; show it as unknown or skip it."},
		"severity":      "info",
		"_meta":         map[string]any{"acptest": map[string]any{"note": "not in any ACP schema"}},
	})
}

func textContent(s string) acp.ToolCallContent { return acp.ToolContent(acp.TextBlock(s)) }
