package render

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

const (
	// tabStop is the column interval of terminal tab stops.
	tabStop = 8
	// maxCarriedSGR bounds the colour state carried from one line to the
	// next, so output that changes colour on every line without ever
	// resetting cannot make each line's prefix grow without limit.
	maxCarriedSGR = 8
)

// TerminalLines lays out a command's output for a panel width×height cells:
// untrusted text made safe (SafeSGR), tabs expanded to 8-column stops, CR-overwritten
// progress lines reduced to their last state, each line cut to width cells with
// ansi-aware truncation (an ellipsis "…" at the cut) and closed with "\x1b[0m" when it
// carries colour, and, when there are more lines than height, the first head lines,
// one line "… N lines …" (dim, centred) and the last tail lines, with
// head = (height-1)/2 and tail = the rest. It never returns more than height lines
// nor a line wider than width cells; width or height < 1 gives nil.
//
// Colour left open at the end of a line is carried to the next line (and
// across the hidden middle), so a coloured block that spans lines keeps its
// colour although every shown line ends with a reset.
func TerminalLines(output string, width, height int) []string {
	return terminalLines(output, width, height)
}

// TerminalHead lays out a command's output as TerminalLines does, but for
// a view that scrolls: from the top, a line longer than the width wrapped
// onto the next rows as a terminal wraps it (so nothing of it is cut off),
// at most height rows, the last of them "… N more lines" when the output
// has more.
func TerminalHead(output string, width, height int) []string {
	if width < 1 || height < 1 {
		return nil
	}
	lines := outputLines(output)
	out := make([]string, 0, min(len(lines), height))
	var carry sgrState
	for i, raw := range lines {
		line := sanitize.SafeSGR(lastCRState(raw))
		if strings.IndexByte(line, '\t') >= 0 {
			line = ExpandTabs(line)
		}
		segs := []string{line}
		if ansi.StringWidth(line) > width {
			segs = strings.Split(ansi.Hardwrap(line, width, true), "\n")
		}
		for j, seg := range segs {
			last := i == len(lines)-1 && j == len(segs)-1
			if len(out) == height-1 && !last {
				return append(out, MoreLine(len(lines)-i, width))
			}
			out = append(out, layoutLine(carry.prefix(), seg, width))
			carry.scan(seg)
		}
	}
	return out
}

// outputLines are output's lines; a final newline ends the last line
// rather than starting one.
func outputLines(output string) []string {
	lines := strings.Split(output, "\n")
	if n := len(lines); n > 0 && strings.Trim(lines[n-1], "\r") == "" {
		lines = lines[:n-1]
	}
	return lines
}

func terminalLines(output string, width, height int) []string {
	if width < 1 || height < 1 {
		return nil
	}
	lines := outputLines(output)
	if len(lines) == 0 {
		return nil
	}

	head, tail, hidden := len(lines), 0, 0
	if len(lines) > height {
		head = (height - 1) / 2
		tail = height - 1 - head
		hidden = len(lines) - head - tail
	}
	out := make([]string, 0, min(len(lines), height))
	var carry sgrState
	for i, raw := range lines {
		if i == head && hidden > 0 {
			out = append(out, hiddenMarker(hidden, width))
		}
		line := lastCRState(raw)
		if i < head || i >= len(lines)-tail {
			// Only shown lines are sanitized; hidden ones are only scanned
			// for colour (BenchmarkTerminalLines).
			line = sanitize.SafeSGR(line)
			out = append(out, layoutLine(carry.prefix(), line, width))
		}
		carry.scan(line)
	}
	return out
}

// lastCRState reduces a line to what a terminal shows after its carriage
// returns: the last non-empty segment, so `10%\r50%\r100%` becomes `100%`
// and a CRLF line ending leaves the line as it was. It runs before SafeSGR,
// which drops every \r.
func lastCRState(line string) string {
	if strings.IndexByte(line, '\r') < 0 {
		return line
	}
	line = strings.TrimRight(line, "\r")
	if j := strings.LastIndexByte(line, '\r'); j >= 0 {
		line = line[j+1:]
	}
	return line
}

// layoutLine expands tabs in line, cuts it to width cells and closes any
// colour it carries.
func layoutLine(prefix, line string, width int) string {
	if strings.IndexByte(line, '\t') >= 0 {
		line = ExpandTabs(line)
	}
	line = ansi.Truncate(prefix+line, width, "…")
	if strings.IndexByte(line, 0x1b) >= 0 {
		line += styles.Reset
	}
	return line
}

// ExpandTabs replaces each tab with spaces up to the next terminal tab stop.
func ExpandTabs(line string) string { return expandTabsAt(line, tabStop) }

// expandTabsAt replaces each tab with spaces up to the next multiple of
// stop, counting cells (wide characters are two, SGR sequences none).
func expandTabsAt(line string, stop int) string {
	if strings.IndexByte(line, '\t') < 0 {
		return line
	}
	var b strings.Builder
	col := 0
	for i, seg := range strings.Split(line, "\t") {
		if i > 0 {
			n := stop - col%stop
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		b.WriteString(seg)
		col += ansi.StringWidth(seg)
	}
	return b.String()
}

// hiddenMarker is the dim, centred line standing for n hidden lines.
func hiddenMarker(n, width int) string {
	text := "… " + strconv.Itoa(n) + " lines …"
	if n == 1 {
		text = "… 1 line …"
	}
	if w := ansi.StringWidth(text); w < width {
		text = strings.Repeat(" ", (width-w)/2) + text
	} else {
		text = ansi.Truncate(text, width, "…")
	}
	return styles.Faint + text + styles.Reset
}

// sgrState is the colour still in effect at the end of the lines scanned so
// far: the SGR sequences seen since the last reset.
type sgrState struct {
	seqs []string
}

func (s *sgrState) prefix() string {
	return strings.Join(s.seqs, "")
}

// scan updates the state with the SGR sequences in line, parsing escapes
// as SafeSGR does, so a line need not be sanitized to follow its colour.
func (s *sgrState) scan(line string) {
	for {
		i := strings.IndexByte(line, 0x1b)
		if i < 0 {
			return
		}
		line = line[i:]
		n := sanitize.EscapeLen(line)
		seq := line[:n]
		line = line[n:]
		switch {
		case !sanitize.IsSGR(seq):
		case seq == "\x1b[m" || seq == styles.Reset:
			s.seqs = s.seqs[:0]
		case strings.HasPrefix(seq, "\x1b[0;"):
			s.seqs = append(s.seqs[:0], seq)
		default:
			if len(s.seqs) == maxCarriedSGR {
				copy(s.seqs, s.seqs[1:])
				s.seqs = s.seqs[:maxCarriedSGR-1]
			}
			s.seqs = append(s.seqs, seq)
		}
	}
}
