package tui

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
)

// y copies the selected step's command, path or URL to the clipboard
// through the terminal; Y copies its output. The footer says what.
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
		{model.CategoryExecute, "y", func(*model.Step) string { return "ls -la" }, "copied the command: ls -la"},
		{model.CategoryRead, "y", func(s *model.Step) string { return s.Location }, "copied the path"},
		{model.CategoryFetch, "y", func(s *model.Step) string { return s.Location }, "copied the URL"},
		{model.CategoryExecute, "Y", func(s *model.Step) string { return s.Result }, "copied the output"},
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
