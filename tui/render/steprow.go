package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// StepGlyph is a step's status mark and its SGR colour. The glyphs do not
// move, so a row never needs a timer tick to stay current.
func StepGlyph(s model.Status) (glyph, sgr string) {
	switch s {
	case model.StatusRunning:
		return "◐", styles.ParamYellow
	case model.StatusCompleted:
		return "✓", styles.ParamGreen
	case model.StatusFailed:
		return "✗", styles.ParamRed
	case model.StatusCancelled, model.StatusInterrupted:
		return "⊘", styles.ParamDim
	}
	return "○", styles.ParamDim // pending, and anything not yet known
}

// StepStatusWord is a status as the card's status line says it.
func StepStatusWord(s model.Status) string {
	switch s {
	case model.StatusRunning, model.StatusFailed, model.StatusCancelled, model.StatusInterrupted:
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

// StepLabel is the step's label made safe and flat: escape sequences and
// controls removed, line breaks and tabs turned into spaces.
func StepLabel(s *model.Step) string {
	l := sanitize.Plain(s.Label())
	l = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, l)
	return strings.TrimSpace(l)
}

// StepResult is the parts of a step's result mark: "exit N" (red) for a
// non-zero exit code, and the duration (dim), each present only when known.
func StepResult(s *model.Step) (exit, dur string) {
	if s.ExitCode != nil && *s.ExitCode != 0 {
		exit = "exit " + strconv.Itoa(*s.ExitCode)
	}
	return exit, FormatStepDuration(s.Duration())
}

// WriteResult writes the exit code and duration joined by " · ".
func (w *Line) WriteResult(exit, dur string) {
	if exit != "" {
		w.Put(exit, styles.ParamRed)
	}
	if exit != "" && dur != "" {
		w.Put(" · ", styles.ParamDim)
	}
	if dur != "" {
		w.Put(dur, styles.ParamDim)
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
	w := NewLine(width)
	glyph, sgr := StepGlyph(s.Status)
	w.Put(glyph, sgr)
	w.Put(" "+CategoryIcon(s.Category)+" ", "")
	label := StepLabel(s)
	exit, dur := StepResult(s)
	if strings.Contains(label, "("+exit+")") {
		exit = "" // the label says it: "Command failed (exit 2)"
	}
	rw := resultWidth(exit, dur)
	room := w.Room()
	if rw > 0 && room-rw-1 >= min(ansi.StringWidth(label), stepRowMinLabel) {
		w.Cut(label, room-rw-1, "")
		w.Spaces(w.Room() - rw)
		w.WriteResult(exit, dur)
	} else {
		w.Cut(label, room, "")
	}
	return w.String()
}
