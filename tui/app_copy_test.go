package tui

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
)

// y copies the selected step's command, path or URL to the clipboard
// through the terminal; Y copies its output. The footer says what, and
// that the terminal was asked: nothing says the copy reached a clipboard.
func TestCopyStep(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	first := map[model.Category]int{}
	for i, s := range d.fold.Steps() {
		if _, ok := first[s.Category]; !ok {
			first[s.Category] = i
		}
	}
	for _, tc := range []struct {
		cat    model.Category
		key    string
		want   func(s *model.Step) string
		saying string
	}{
		{model.CategoryExecute, "y", func(*model.Step) string { return "ls -la" }, "asked the terminal to copy the command ls -la (OSC 52)"},
		{model.CategoryRead, "y", func(s *model.Step) string { return s.Location }, "asked the terminal to copy the path"},
		{model.CategoryFetch, "y", func(s *model.Step) string { return s.Location }, "asked the terminal to copy the URL"},
		{model.CategoryExecute, "Y", func(s *model.Step) string { return s.Result }, "asked the terminal to copy the output"},
	} {
		d.selectStep(first[tc.cat])
		s := d.step()
		_, cmd := d.Update(keyPress(tc.key))
		if cmd == nil {
			t.Fatalf("%s on a %s step gave no command", tc.key, tc.cat)
		}
		if got, want := cmd(), tea.SetClipboard(tc.want(s))(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s on a %s step sent %#v, want %#v", tc.key, tc.cat, got, want)
		}
		if !strings.Contains(d.plain(), tc.saying) {
			t.Errorf("%s on a %s step: the footer does not say %q", tc.key, tc.cat, tc.saying)
		}
	}
}

// With a tool of the machine's (AppOptions.Clipboard), y copies through it
// off the screen's goroutine, and the footer says how it went: copied with
// the tool, or why it could not.
func TestCopyStepWithATool(t *testing.T) {
	var got []string
	var fail error
	clip := func(text string) (string, error) {
		got = append(got, text)
		return "with wl-copy", fail
	}
	d := newDemoApp(t, 120, 40, true, AppOptions{Clipboard: clip})
	for i, s := range d.fold.Steps() {
		if s.Category == model.CategoryExecute {
			d.selectStep(i)
			break
		}
	}
	_, cmd := d.Update(keyPress("y"))
	if !strings.Contains(d.plain(), "copying the command ls -la…") || len(got) != 0 {
		t.Fatalf("before the tool ran: copied %q, footer:\n%s", got, d.plain())
	}
	d.Update(cmd())
	if !reflect.DeepEqual(got, []string{"ls -la"}) || !strings.Contains(d.plain(), "copied the command ls -la with wl-copy") {
		t.Fatalf("copied %q, footer:\n%s", got, d.plain())
	}
	fail = errors.New("xclip: exit status 1: Error: Can't open display")
	_, cmd = d.Update(keyPress("y"))
	d.Update(cmd())
	if !strings.Contains(d.plain(), "could not copy the command ls -la: xclip: exit status 1") {
		t.Fatalf("footer after a failed copy:\n%s", d.plain())
	}
}
