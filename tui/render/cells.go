package render

import "github.com/charmbracelet/x/ansi"

// Cells is the number of terminal cells line takes, as ansi.StringWidth
// counts them. A line of printable ASCII and CSI sequences (colours), which
// is nearly every line a frame draws, is counted byte by byte; any other
// line is left to ansi, which measures each grapheme (a quarter of a
// frame's time when every row went through it).
func Cells(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c >= 0x20 && c < 0x7f:
			n++
		case c == 0x1b && i+1 < len(line) && line[i+1] == '[':
			// A CSI sequence of numeric parameters (a colour's), up to its
			// final byte, none of it a cell; private markers and
			// intermediates, which terminals and ansi read differently, are
			// left to ansi.
			j := i + 2
			for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';' || line[j] == ':') {
				j++
			}
			if j == len(line) || line[j] < 0x40 || line[j] > 0x7e {
				return ansi.StringWidth(line)
			}
			i = j
		default:
			return ansi.StringWidth(line)
		}
	}
	return n
}
