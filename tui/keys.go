package tui

// This file holds how keys are handled: each mode has one key map (keymaps.go)
// whose bindings say their keys, their help and what they do, and the same
// map draws the footer and the ? overlay. A key that is not in the map of
// the mode the screen is in does nothing (or is typed, where a line takes
// text), so no key can be handled without being listed, nor listed without
// being handled.

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// binding is one entry of a key map: its keys and help, what it does, and
// whether the footer names it.
type binding struct {
	key.Binding
	do func(a *App, k tea.KeyPressMsg) tea.Cmd
	// footer is how the footer names the binding, shorter than its help
	// line; a zero help for none. footerIf, when set, says when the footer
	// names it.
	footer   key.Help
	footerIf func(a *App) bool
}

// keyGroup is a heading of the help and its bindings. when, if set, says
// when the group applies (the prompt line has focus, the run tree is
// shown); a group that overrides comes, while it applies, before every
// other, so it may give their keys another meaning there. notes are help
// lines that are not keys: what is typed into a line, such as /mode ID.
type keyGroup struct {
	title     string
	when      func(a *App) bool
	overrides bool
	keys      []binding
	notes     [][2]string
}

// keyMap is every key of one mode of the screen.
type keyMap struct {
	name   string
	groups []keyGroup
	// typing takes the keys no binding names, where a line takes text
	// (the prompt line, the search line); nil leaves them unhandled.
	typing func(a *App, k tea.KeyPressMsg) tea.Cmd
	// mouse are the help's lines about the mouse.
	mouse [][2]string
}

// on is a binding of keys, shown in help as helpKey: desc.
func on(keys []string, helpKey, desc string, do func(a *App, k tea.KeyPressMsg) tea.Cmd) binding {
	return binding{Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc)), do: do}
}

// also is a binding whose keys the binding before it names in its help
// ("←/→ h/l  previous / next step" covers → and l): it has no help line of
// its own.
func also(keys []string, do func(a *App, k tea.KeyPressMsg) tea.Cmd) binding {
	return binding{Binding: key.NewBinding(key.WithKeys(keys...)), do: do}
}

// inFooter puts a binding in the footer as "keyName desc".
func (b binding) inFooter(keyName, desc string) binding {
	b.footer = key.Help{Key: keyName, Desc: desc}
	return b
}

// keys is a short way to write a list of keys.
func keys(k ...string) []string { return k }

// just adapts an action without a command to a binding's do.
func just(f func(a *App)) func(*App, tea.KeyPressMsg) tea.Cmd {
	return func(a *App, _ tea.KeyPressMsg) tea.Cmd {
		f(a)
		return nil
	}
}

// cmd adapts an action that returns a command to a binding's do.
func cmd(f func(a *App) tea.Cmd) func(*App, tea.KeyPressMsg) tea.Cmd {
	return func(a *App, _ tea.KeyPressMsg) tea.Cmd { return f(a) }
}

// applies reports whether group g applies now.
func (g keyGroup) applies(a *App) bool { return g.when == nil || g.when(a) }

// handle runs the binding of k in the groups that apply; ok is false when
// none names k and the map takes no typing.
func (m keyMap) handle(a *App, k tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, first := range []bool{true, false} {
		for _, g := range m.groups {
			if g.overrides != first || !g.applies(a) {
				continue
			}
			for _, b := range g.keys {
				if key.Matches(k, b.Binding) {
					return b.do(a, k), true
				}
			}
		}
	}
	if m.typing != nil {
		return m.typing(a, k), true
	}
	return nil, false
}

// ShortHelp is the footer: the bindings marked for it, in the groups that
// apply now.
func (m keyMap) ShortHelp(a *App) []key.Binding {
	var out []key.Binding
	for _, g := range m.groups {
		if !g.applies(a) {
			continue
		}
		for _, b := range g.keys {
			if b.footer.Key != "" && (b.footerIf == nil || b.footerIf(a)) {
				out = append(out, key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.footer.Key, b.footer.Desc)))
			}
		}
	}
	return out
}

// FullHelp is every binding of the map, a group a column, for the help.
func (m keyMap) FullHelp() [][]key.Binding {
	out := make([][]key.Binding, 0, len(m.groups))
	for _, g := range m.groups {
		col := make([]key.Binding, 0, len(g.keys))
		for _, b := range g.keys {
			if b.Help().Key != "" {
				col = append(col, b.Binding)
			}
		}
		out = append(out, col)
	}
	return out
}

// key handles one key press with the key map of what is on screen.
func (a *App) key(k tea.KeyPressMsg) tea.Cmd {
	a.note = ""
	cmd, _ := a.keyMap().handle(a, k)
	return cmd
}
