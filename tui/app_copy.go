package tui

// This file copies what the selected step is about to the clipboard: y
// the command it ran, the file or URL it acted on, else its output; Y its
// output. The copy goes through the terminal (OSC 52), so it reaches the
// clipboard of the machine the person sits at, over SSH too.

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
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	a.note = "copied the " + what + " (" + thousands(len(text)) + " bytes, " + thousands(lines) + " lines)"
	if lines == 1 {
		a.note = "copied the " + what + ": " + oneLineNote(text)
	}
	return tea.SetClipboard(text)
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
