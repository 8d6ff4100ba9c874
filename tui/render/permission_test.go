package render

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

const permissionOptionsJSON = `[{"optionId":"ok","name":"Allow once","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]`

// A permission row says in words what the agent asks and how it was
// answered, never its options as JSON; while it waits it names them.
func TestPermissionWords(t *testing.T) {
	ask := func(status model.Status, text string) *model.Item {
		return &model.Item{Kind: model.ItemPermission, Name: "Run `rm -rf build`", Status: status, Text: text, Data: []byte(permissionOptionsJSON)}
	}
	for _, tc := range []struct {
		it   *model.Item
		want string
	}{
		{ask(model.StatusOpen, ""), "permission · Run `rm -rf build`? · waiting for you: Allow once, Reject"},
		{ask(model.StatusCompleted, model.AnswerAllowedOnce), "permission · Run `rm -rf build`? · allowed once"},
		{ask(model.StatusCompleted, model.AnswerRejected), "permission · Run `rm -rf build`? · rejected"},
		{ask(model.StatusCancelled, "cancelled"), "permission · Run `rm -rf build`? · cancelled"},
		{ask(model.StatusFailed, "error: gone"), "permission · Run `rm -rf build`? · error: gone"},
		{&model.Item{Kind: model.ItemPermission, Name: "Ready to code?", Status: model.StatusCompleted, Text: "chose Keep planning"},
			"permission · Ready to code? · chose Keep planning"},
		{&model.Item{Kind: model.ItemPermission, Status: model.StatusOpen, Data: []byte(`[]`)}, "permission · waiting for you"},
		{&model.Item{Kind: model.ItemPermission, Name: "rm\x1b[2J -rf\n/", Status: model.StatusOpen,
			Data: []byte(`[{"optionId":"a","name":"Yes\u001b]0;pwned\u0007 please"}]`)}, "permission · rm -rf /? · waiting for you: Yes please"},
	} {
		if got := PermissionText(tc.it); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
		for _, width := range []int{1, 10, 30, 80, 200} {
			row := PermissionRow(tc.it, width)
			viewtest.CheckLines(t, []string{row}, width, 1)
			if strings.Contains(row, "optionId") || strings.Contains(row, "\x1b]") || strings.Contains(row, "\x1b[2J") {
				t.Errorf("row at %d shows raw or hostile text: %q", width, row)
			}
		}
		if got := strings.TrimRight(ansi.Strip(PermissionRow(tc.it, 200)), " "); got != tc.want {
			t.Errorf("row %q, want %q", got, tc.want)
		}
	}
	// A narrow row cuts the question, not the answer.
	row := ansi.Strip(PermissionRow(ask(model.StatusCompleted, model.AnswerRejected), 36))
	if !strings.HasSuffix(strings.TrimRight(row, " "), "· rejected") {
		t.Errorf("narrow row %q lost its answer", row)
	}
}
