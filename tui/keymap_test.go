package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// keyState is the screen in one of its modes, made afresh for each use.
type keyState struct {
	name string
	want string // the key map's name
	make func(t *testing.T) *App
}

func keyStates() []keyState {
	perm := func(a *App) {
		answer := make(chan string, 8)
		opts := []model.PermissionOption{{ID: "ok1", Name: "Allow once", Kind: "allow_once"}, {ID: "no1", Name: "Reject", Kind: "reject_once"}}
		a.Update(PermissionMsg{Request: model.PermissionRequest{ToolCallID: "x", Title: "Edit", Options: opts}, Answer: answer})
	}
	return []keyState{
		{"review", "review", func(t *testing.T) *App { return newDemoApp(t, 120, 40, true, AppOptions{}).App }},
		{"live", "live", func(t *testing.T) *App { return newDemoApp(t, 120, 40, false, AppOptions{}).App }},
		{"live, computer focused", "live", func(t *testing.T) *App {
			d := newDemoApp(t, 120, 40, false, AppOptions{})
			d.press("tab")
			return d.App
		}},
		{"run tree", "review", func(t *testing.T) *App {
			d := newDemoApp(t, 120, 40, true, AppOptions{})
			d.press("t", "tab")
			return d.App
		}},
		{"replay", "replay", func(t *testing.T) *App { a, _, _ := newReplayTestApp(t, 120, 40); return a }},
		{"session, prompt", "session", func(t *testing.T) *App { a, _ := newAgentTestApp(t, 120, 40); return a }},
		{"session, transcript", "session", func(t *testing.T) *App {
			a, _ := newAgentTestApp(t, 120, 40)
			a.Update(keyPress("esc"))
			return a
		}},
		{"permission", "permission", func(t *testing.T) *App { a, _ := newAgentTestApp(t, 120, 40); perm(a); return a }},
		{"search", "search", func(t *testing.T) *App {
			d := newDemoApp(t, 120, 40, true, AppOptions{})
			d.press("/")
			return d.App
		}},
		{"filter", "filter", func(t *testing.T) *App {
			d := newDemoApp(t, 120, 40, true, AppOptions{})
			d.press("f")
			return d.App
		}},
		{"thread list", "thread list", func(t *testing.T) *App {
			d := newThreadsApp(t, 120, 40, AppOptions{}, model.Batch{Source: threadsSource, Records: threadsRecords(t)})
			return d.App
		}},
		{"thread", "review", func(t *testing.T) *App {
			d := newThreadsApp(t, 120, 40, AppOptions{}, model.Batch{Source: threadsSource, Records: threadsRecords(t)})
			d.close(t)
			d.press("enter")
			return d.App
		}},
		{"help", "help", func(t *testing.T) *App {
			d := newDemoApp(t, 120, 40, true, AppOptions{})
			d.press("?")
			return d.App
		}},
	}
}

// keyUniverse is every key a test presses: printable characters and the
// named keys, each as the message whose String is that name.
func keyUniverse() map[string]tea.KeyPressMsg {
	out := map[string]tea.KeyPressMsg{}
	for r := rune(0x21); r < 0x7f; r++ {
		out[string(r)] = tea.KeyPressMsg{Code: r, Text: string(r)}
	}
	named := map[string]rune{"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "enter": tea.KeyEnter,
		"esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
		"insert": tea.KeyInsert, "space": tea.KeySpace, "f1": tea.KeyF1, "f5": tea.KeyF5}
	for name, code := range named {
		k := tea.KeyPressMsg{Code: code}
		if code == tea.KeySpace {
			k.Text = " "
		}
		out[name] = k
	}
	out["shift+tab"] = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	for r := 'a'; r <= 'z'; r++ {
		out["ctrl+"+string(r)] = tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl}
	}
	out["alt+x"] = tea.KeyPressMsg{Code: 'x', Mod: tea.ModAlt}
	return out
}

// keyNames are how the help writes key names.
var keyNames = map[string]string{"left": "←", "right": "→", "up": "↑", "down": "↓", "pgup": "PgUp", "pgdown": "PgDn",
	"home": "Home", "end": "End", "enter": "Enter", "ctrl+d": "ctrl+u/d"}

// Every mode has one key map, and each binding is whole: it has keys; it
// says them in its help, or the binding before it does; the help lists
// it; and no two bindings that apply at once share a key.
func TestKeyMapsAreComplete(t *testing.T) {
	for _, st := range keyStates() {
		t.Run(st.name, func(t *testing.T) {
			a := st.make(t)
			km := a.keyMap()
			if km.name != st.want {
				t.Fatalf("the key map is %q, want %q", km.name, st.want)
			}
			help := ansi.Strip(strings.Join(helpBody(km, 1000, 1000), "\n"))
			seen := map[string]string{}
			for _, g := range km.groups {
				var named string
				for _, b := range g.keys {
					if len(b.Keys()) == 0 {
						t.Errorf("a binding of %q has no keys", g.title)
					}
					h := b.Help()
					switch {
					case h.Key != "":
						named = h.Key
						if !strings.Contains(help, h.Key) || !strings.Contains(help, h.Desc) {
							t.Errorf("the help lacks %q %q", h.Key, h.Desc)
						}
					default:
						for _, k := range b.Keys() {
							name := k
							if n, ok := keyNames[k]; ok {
								name = n
							}
							if !strings.Contains(named, name) && !strings.Contains(named, k) {
								t.Errorf("key %q (%s) is named in no help line: the one before says %q", k, g.title, named)
							}
						}
					}
					if g.overrides {
						continue // it rebinds keys while it applies
					}
					for _, k := range b.Keys() {
						if other, ok := seen[k]; ok {
							t.Errorf("key %q is bound twice: %q and %q", k, other, h.Key+" "+h.Desc)
						}
						seen[k] = h.Key + " " + h.Desc
					}
				}
				for _, n := range g.notes {
					if !strings.Contains(help, n[1]) {
						t.Errorf("the help lacks the note %q", n[1])
					}
				}
			}
			for _, f := range km.ShortHelp(a) {
				if len(f.Keys()) == 0 || f.Help().Key == "" {
					t.Errorf("the footer names %+v", f.Help())
				}
			}
			for _, m := range km.mouse {
				if !strings.Contains(help, m[1]) {
					t.Errorf("the help lacks %q", m[1])
				}
			}
		})
	}
}

// appState is what a key may change, seen from outside.
func appState(a *App) string {
	return fmt.Sprintf("%s|%d|%v|%v|%v|%v|%v|%v|%q|%v|%d|%q|%v", a.View().Content, a.selected, a.focus, a.help, a.zoom,
		a.hidePanel, a.layout, a.showRuns, a.search.m.Query(), a.search.asking, a.panelScroll, a.filter.spec.String(), a.following)
}

// A key that no binding of the mode names does nothing: no key is handled
// without being listed. Lines that take text are the exception, and their
// help says so.
func TestUnlistedKeysDoNothing(t *testing.T) {
	universe := keyUniverse()
	for _, st := range keyStates() {
		t.Run(st.name, func(t *testing.T) {
			a := st.make(t)
			km := a.keyMap()
			if km.typing != nil && km.name != "permission" && !(km.name == "session" && a.focus != focusPrompt) {
				t.Skip("a line takes the text typed")
			}
			// A key that does nothing leaves the screen as it was, so the
			// same screen takes the next key; one that changed it is
			// reported and the screen made afresh.
			b := st.make(t)
			before := appState(b)
			for name, k := range universe {
				if k.String() != name {
					t.Fatalf("the key %q says it is %q", name, k.String())
				}
				if _, bound := bindingFor(a, km, k); bound {
					continue
				}
				b.Update(k)
				if after := appState(b); after != before {
					t.Errorf("%q, in no binding of %q, changed the screen", name, km.name)
					b = st.make(t)
					before = appState(b)
				}
			}
		})
	}
}

// bindingFor is the binding of km that applies to k now, if any.
func bindingFor(a *App, km keyMap, k tea.KeyPressMsg) (binding, bool) {
	for _, g := range km.groups {
		if !g.applies(a) {
			continue
		}
		// (Order does not matter here: whether any applying binding has k.)
		for _, b := range g.keys {
			for _, kk := range b.Keys() {
				if kk == k.String() {
					return b, true
				}
			}
		}
	}
	return binding{}, false
}
