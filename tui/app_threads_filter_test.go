package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// / filters the thread list as it is typed, by title, id or file, in smart
// case; Enter keeps the filter and the list still opens what it shows; esc
// shows every thread again. esc with no filter opens nothing: the list is
// the top, and the footer says so.
func TestThreadListFilter(t *testing.T) {
	d := savedThreads(t, 160, 40)
	all := d.tv().set.Len()
	d.press("esc")
	if !d.tv().listing || !strings.Contains(d.plain(), "the thread list is the top") {
		t.Fatalf("esc on the list left it, or said nothing:\n%s", d.plain())
	}
	want := d.tv().order[3]
	word := strings.Fields(want.Title())[0]
	d.press("/")
	d.typeText(strings.ToLower(word))
	if n := len(d.tv().order); n == 0 || n >= all {
		t.Fatalf("%q keeps %d of %d threads", word, n, all)
	}
	for _, th := range d.tv().order {
		if !strings.Contains(strings.ToLower(th.Title()), strings.ToLower(word)) && !strings.Contains(th.ID, word) {
			t.Errorf("%q keeps %s %q", word, th.Key(), th.Title())
		}
	}
	screen := ansi.Strip(d.screen(t))
	if !strings.Contains(screen, "threads · ") || !strings.Contains(screen, " of "+itoa(all)) {
		t.Errorf("the title and line do not say how many are kept:\n%s", screen)
	}
	d.press("enter")
	if d.search.asking != inputNone || !d.tv().listing {
		t.Fatal("Enter did not keep the filter on the list")
	}
	d.press("enter")
	if d.tv().listing || d.tv().cur != d.tv().order[0] {
		t.Fatal("Enter on the filtered list did not open its first thread")
	}
	d.press("esc")
	d.press("esc")
	if len(d.tv().order) != all || !d.tv().listing {
		t.Fatalf("esc left %d of %d threads listed", len(d.tv().order), all)
	}
}

// Keys that can do nothing here say why in the footer: { } and F with one
// thread, { past the list's first thread, p without a plan.
func TestKeysSayWhenTheyCannot(t *testing.T) {
	d := newDemoApp(t, 120, 40, true, AppOptions{})
	for key, says := range map[string]string{"{": "one thread only", "}": "one thread only", "F": "one thread only", "p": "no plan"} {
		d.press(key)
		if !strings.Contains(d.plain(), says) {
			t.Errorf("%s says nothing of %q:\n%s", key, says, d.plain())
		}
	}
	th := savedThreads(t, 160, 40)
	th.open(t, th.tv().order[0])
	th.press("{")
	if !strings.Contains(th.plain(), "no thread before this one") {
		t.Errorf("{ on the first thread says nothing:\n%s", th.plain())
	}
}

func itoa(n int) string { return thousands(n) }

func (d *threadsApp) plain() string { return ansi.Strip(d.View().Content) }

func (d *threadsApp) typeText(s string) {
	for _, r := range s {
		d.press(string(r))
	}
}
