package threadlist

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestThreadListProject shows a row's project in place of its file's name,
// made one safe line and cut at its start, and the file's name when the
// row has none.
func TestThreadListProject(t *testing.T) {
	rows := []Row{
		{ID: "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23", Title: "fix the flaky test", Source: "/c/projects/-home-dev-app/7f3c2a10.jsonl",
			Project: "/home/dev/app", Runs: 1, Steps: 3, First: at(0, 10, 0, 0), Last: at(0, 10, 5, 0)},
		{ID: "s2", Title: "write the docs", Source: "/c/projects/-srv-a-very-long-project-name-indeed/s2.jsonl",
			Project: "/srv/a/very/long/project\x1b[31mname/indeed", Runs: 1, First: at(0, 9, 0, 0), Last: at(0, 9, 1, 0)},
		{ID: "t3", Title: "plain log", Source: "/var/log/run.jsonl", Runs: 1, First: at(0, 8, 0, 0), Last: at(0, 8, 1, 0)},
	}
	lines := listOf(rows, 0).View(160, 5)
	if narrow := ansi.Strip(strings.Join(listOf(rows, 0).View(80, 5), "\n")); !strings.Contains(narrow, "/home/dev/app") {
		t.Errorf("80 columns do not show the project:\n%s", narrow)
	}
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, want := range []string{"/home/dev/app", "…long/projectname/indeed", "run.jsonl"} {
		if !strings.Contains(text, want) {
			t.Errorf("the list does not show %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"7f3c2a10.jsonl", "s2.jsonl", "\x1b[31m"} {
		if strings.Contains(strings.Join(lines, "\n"), not) {
			t.Errorf("the list shows %q:\n%s", not, text)
		}
	}
}
