package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

// stepGlyph is a step's status mark and its SGR colour. The glyphs do not
// move, so a row never needs a timer tick to stay current.
func stepGlyph(s model.Status) (glyph, sgr string) {
	switch s {
	case model.StatusRunning:
		return "◐", tlYellow
	case model.StatusCompleted:
		return "✓", tlGreen
	case model.StatusFailed:
		return "✗", tlRed
	case model.StatusCancelled:
		return "⊘", tlDim
	}
	return "○", tlDim // pending, and anything not yet known
}

// stepStatusWord is a status as the card's status line says it.
func stepStatusWord(s model.Status) string {
	switch s {
	case model.StatusRunning, model.StatusFailed, model.StatusCancelled:
		return string(s)
	case model.StatusCompleted:
		return "done"
	}
	return "pending"
}

// FormatStepDuration formats how long a step took for a row: "340ms" under a
// second, "1.2s" (tenths, "2s" when whole) under a minute, "2m5s" under an
// hour, "1h2m" beyond, and "" for an unknown (zero or negative) duration.
func FormatStepDuration(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	ms := d.Milliseconds()
	if ms < 1000 {
		return strconv.FormatInt(max(ms, 1), 10) + "ms"
	}
	// Round once, at the precision shown, so 59.96 s reads 1m0s, not 60.0s.
	if tenths := (d + 50*time.Millisecond) / (100 * time.Millisecond); tenths < 600 {
		s := strconv.FormatInt(int64(tenths/10), 10)
		if f := tenths % 10; f != 0 {
			s += "." + strconv.FormatInt(int64(f), 10)
		}
		return s + "s"
	}
	secs := int64((d + 500*time.Millisecond) / time.Second)
	if secs < 3600 {
		return strconv.FormatInt(secs/60, 10) + "m" + strconv.FormatInt(secs%60, 10) + "s"
	}
	mins := (secs + 30) / 60
	return strconv.FormatInt(mins/60, 10) + "h" + strconv.FormatInt(mins%60, 10) + "m"
}

// stepLabel is the step's label made safe and flat: escape sequences and
// controls removed, line breaks and tabs turned into spaces.
func stepLabel(s *model.Step) string {
	l := Plain(s.Label())
	l = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, l)
	return strings.TrimSpace(l)
}

// stepResult is the parts of a step's result mark: "exit N" (red) for a
// non-zero exit code, and the duration (dim), each present only when known.
func stepResult(s *model.Step) (exit, dur string) {
	if s.ExitCode != nil && *s.ExitCode != 0 {
		exit = "exit " + strconv.Itoa(*s.ExitCode)
	}
	return exit, FormatStepDuration(s.Duration())
}

// writeResult writes the exit code and duration joined by " · ".
func (w *cardWriter) writeResult(exit, dur string) {
	if exit != "" {
		w.put(exit, tlRed)
	}
	if exit != "" && dur != "" {
		w.put(" · ", tlDim)
	}
	if dur != "" {
		w.put(dur, tlDim)
	}
}

func resultWidth(exit, dur string) int {
	n := len(exit) + len(dur) // both ASCII
	if exit != "" && dur != "" {
		n += ansi.StringWidth(" · ")
	}
	return n
}

// stepRowMinLabel is how many cells of its label a row keeps before it
// gives up the exit code and duration to make room.
const stepRowMinLabel = 10

// StepRow is a tool call's one-line transcript row: a status glyph (spinner-free:
// ○ pending, ◐ running, ✓ completed green, ✗ failed red, ⊘ cancelled dim), the
// category icon, the step label (Plain, one line), and at the right the exit code
// when non-zero and the label does not say it ("exit 2") and the duration
// ("1.2s", "340ms"), cut to width cells.
//
// The row is exactly width cells (nothing for a width below 1). A label too
// long for the row is cut with "…"; when the row is so narrow that the label
// would keep fewer than ten cells, the exit code and duration are left out.
// A nil step gives a blank row.
func StepRow(s *model.Step, width int) string {
	if width <= 0 {
		return ""
	}
	if s == nil {
		return strings.Repeat(" ", width)
	}
	w := newCardWriter(width)
	glyph, sgr := stepGlyph(s.Status)
	w.put(glyph, sgr)
	w.put(" "+CategoryIcon(s.Category)+" ", "")
	label := stepLabel(s)
	exit, dur := stepResult(s)
	if strings.Contains(label, "("+exit+")") {
		exit = "" // the label says it: "Command failed (exit 2)"
	}
	rw := resultWidth(exit, dur)
	room := w.room()
	if rw > 0 && room-rw-1 >= min(ansi.StringWidth(label), stepRowMinLabel) {
		w.cut(label, room-rw-1, "")
		w.spaces(w.room() - rw)
		w.writeResult(exit, dur)
	} else {
		w.cut(label, room, "")
	}
	return w.String()
}
