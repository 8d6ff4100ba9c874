package computer

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// The execute view shows the command with its arguments, however the
// agent sent them.
func TestCommandWithArguments(t *testing.T) {
	for _, tc := range []struct{ args, loc, want string }{
		{`{"command":"go test ./..."}`, "", "go test ./..."},
		{`{"command":["go","test","./..."]}`, "", "go test ./..."},
		{`{"command":["sh","-c","go test ./... && echo it's done"]}`, "", `sh -c 'go test ./... && echo it'\''s done'`},
		{`{"command":"sh","args":["-c","ls -la"]}`, "", "sh -c 'ls -la'"},
		{`{"cmd":"make","args":["all",""]}`, "", "make all ''"},
		{`{}`, "npm test", "npm test"},
	} {
		s := &model.Step{Category: model.CategoryExecute, ArgsJSON: []byte(tc.args), Location: tc.loc, Status: model.StatusCompleted}
		if got := Command(s); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.args, got, tc.want)
		}
		if got := ansi.Strip(PanelLines(s, 80, 5)[0]); !strings.HasPrefix(got, "$ "+tc.want) {
			t.Errorf("%s: the view starts %q", tc.args, got)
		}
	}
}

// A read whose result is one fenced block shows the file's lines, not the
// fence; text that is not one block stays as it is.
func TestUnfenced(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"```go\npackage main\n\nfunc main() {}\n```\n", "package main\n\nfunc main() {}\n"},
		{"````\na\n```\nb\n````", "a\n```\nb\n"},
		{"```\n```", ""},
		{"```go\na\n```\ntext after\n", "```go\na\n```\ntext after\n"},
		{"```a\n1\n```\n```b\n2\n```", "```a\n1\n```\n```b\n2\n```"},
		{"plain\ntext", "plain\ntext"},
	} {
		if got := unfenced(tc.in); got != tc.want {
			t.Errorf("unfenced(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	s := &model.Step{Category: model.CategoryRead, Location: "main.go", Status: model.StatusCompleted, Result: "```go\npackage main\n```\n"}
	lines := PanelLines(s, 40, 5)
	if got := strings.TrimSpace(ansi.Strip(lines[0])); got != "1 package main" {
		t.Errorf("the read view's first line is %q", got)
	}
}
