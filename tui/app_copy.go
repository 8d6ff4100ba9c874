package tui

// This file copies what the selected step is about to the clipboard: y
// the command it ran, the file or URL it acted on, else its output; Y its
// output. It copies with the machine's own tool where the screen has one
// (AppOptions.Clipboard), else through the terminal (OSC 52), which
// reaches the clipboard of the machine the person sits at, over SSH too,
// where the terminal lets it: the footer says which way it went.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
)

// copyStep copies the selected step's command, path or URL (its output
// when output is set, or when it has none of those) and says what it
// copied in the footer.
func (a *App) copyStep(output bool) tea.Cmd {
	s := a.shownStep()
	if s == nil {
		a.note = "no step to copy"
		return nil
	}
	what, text := copyText(s, output)
	if text == "" {
		a.note = "step " + strconv.Itoa(s.Index+1) + " has no " + what + " to copy"
		return nil
	}
	desc := copiedDesc(what, text)
	if clip := a.opts.Clipboard; clip != nil {
		a.note = "copying the " + desc + "…"
		return func() tea.Msg {
			how, err := clip(text)
			return copiedMsg{desc: desc, how: how, err: err}
		}
	}
	a.note = "asked the terminal to copy the " + desc + " (OSC 52)"
	return tea.SetClipboard(text)
}

// copiedMsg says how a copy went.
type copiedMsg struct {
	desc, how string
	err       error
}

// onCopied says in the footer how a copy went.
func (a *App) onCopied(m copiedMsg) {
	if m.err != nil {
		a.note = "could not copy the " + m.desc + ": " + Plain(m.err.Error())
		return
	}
	a.note = "copied the " + m.desc + " " + m.how
}

// copiedDesc names what is copied: "command: go test ./...", or for more
// than a line, "output (1,234 bytes, 56 lines)".
func copiedDesc(what, text string) string {
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	if lines == 1 {
		return what + " " + oneLineNote(text)
	}
	return what + " (" + count(len(text), "byte", "bytes") + ", " + count(lines, "line", "lines") + ")"
}

// copyText is what y (or, with output, Y) copies of s, and its name.
func copyText(s *model.Step, output bool) (what, text string) {
	if !output {
		switch s.Category {
		case model.CategoryExecute:
			if c := computer.Command(s); c != "" {
				return "command", c
			}
		case model.CategoryFetch:
			if s.Location != "" {
				return "URL", s.Location
			}
		case model.CategoryRead, model.CategoryEdit, model.CategoryDelete, model.CategoryMove:
			if len(s.Locations) > 0 && s.Locations[0].Path != "" {
				return "path", s.Locations[0].Path
			}
			if s.Location != "" {
				return "path", s.Location
			}
		}
	}
	return "output", s.Result
}

// oneLineNote is a copied text as the footer may show it: one short line.
func oneLineNote(s string) string {
	s = strings.Join(strings.Fields(Plain(s)), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}
