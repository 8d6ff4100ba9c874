package tui

// This file shows how far a big file has been read (the window keeps
// count): the title bar says "reading 45 MB of 126 MB · 250,301 events"
// with a bar, and the terminal's own progress report (where it has one)
// follows it, until the file is read to its end.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// readingNote is the title bar's "reading 45 MB of 126 MB · 250,301 events
// ▕███░░░▏" while a file is being read ("" otherwise).
func (a *App) readingNote() string {
	read, size, ok := a.win.Reading()
	if !ok {
		return ""
	}
	events := 0
	if tv, ok := a.mode.(*threadsView); ok {
		for _, th := range tv.set.List() {
			events += th.Records
		}
	}
	const bar = 10
	full := int(read * bar / max(size, 1))
	return fmt.Sprintf("reading %s of %s · %s events ▕%s%s▏", megabytes(read), megabytes(size), thousands(events),
		strings.Repeat("█", full), strings.Repeat("░", bar-full))
}

// progressBar is the terminal's progress report while a file is read (nil
// otherwise, which clears it).
func (a *App) progressBar() *tea.ProgressBar {
	read, size, ok := a.win.Reading()
	if !ok {
		return nil
	}
	return tea.NewProgressBar(tea.ProgressBarDefault, int(read*100/max(size, 1)))
}

// megabytes writes n bytes as "45 MB" (one decimal under 10 MB).
func megabytes(n int64) string {
	mb := float64(n) / 1e6
	if mb < 10 {
		return fmt.Sprintf("%.1f MB", mb)
	}
	return fmt.Sprintf("%.0f MB", mb)
}

// thousands writes n with commas: 250,301.
// count is n things, with thousands marked and the plural right: "1
// step", "12,345 steps".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
