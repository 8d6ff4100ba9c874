package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// A request without a title asks for its step as an action, not with the
// step's label and its tense.
func TestPermissionBoxAsksAnAction(t *testing.T) {
	req := model.PermissionRequest{ToolCallID: "t1", Options: []model.PermissionOption{{ID: "ok", Name: "Allow", Kind: "allow_once"}}}
	step := &model.Step{ToolCallID: "t1", Category: model.CategoryDelete, Location: "/w/build", Status: model.StatusPending}
	box := ansi.Strip(strings.Join(permissionBox(req, step, 80, 12), "\n"))
	if !strings.Contains(box, "The agent asks to: Delete /w/build") {
		t.Errorf("the dialog asks:\n%s", box)
	}
}
