package images

// The cells that show a picture sent through the kitty graphics protocol.
// Each is the placeholder character U+10EEEE followed by combining marks
// (diacritics) that number its row and its column in the placement, and a
// third one for the image id's most significant byte when that is not 0;
// its foreground colour carries the rest of the image id and its underline
// colour the placement id. Every cell says all of it, so a cell keeps its
// part of the picture when the screen is cut or overlaid anywhere.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/agentwatch/agentwatch/tui/styles"
)

// kittyMaxSpan is how many rows or columns one placement can have: the
// number of diacritics the protocol numbers them with (kitty.Diacritic
// knows that many).
const kittyMaxSpan = 297

// placeholderLines returns rows lines of cols cells that show placement
// placement of image id: cell (r, c) of the placement in row r, column c.
// Each line sets the colours once and ends with a reset. Rows or columns
// past kittyMaxSpan are blank cells: the protocol cannot number them.
// cols or rows below 1 give nil.
func placeholderLines(id, placement uint32, cols, rows int) []string {
	if cols < 1 || rows < 1 {
		return nil
	}
	sgr := idColours(id, placement)
	msb := int(id >> 24)
	shown := min(cols, kittyMaxSpan)
	cell := 4 + 2*3 // U+10EEEE, then two or three marks of at most 3 bytes
	lines := make([]string, rows)
	var b strings.Builder
	for r := range lines {
		if r >= kittyMaxSpan {
			lines[r] = strings.Repeat(" ", cols)
			continue
		}
		b.Reset()
		b.Grow(len(sgr) + shown*cell + (cols - shown) + len(styles.Reset))
		b.WriteString(sgr)
		for c := range shown {
			b.WriteRune(kitty.Placeholder)
			b.WriteRune(kitty.Diacritic(r))
			b.WriteRune(kitty.Diacritic(c))
			if msb != 0 {
				b.WriteRune(kitty.Diacritic(msb))
			}
		}
		b.WriteString(styles.Reset)
		for range cols - shown {
			b.WriteByte(' ')
		}
		lines[r] = b.String()
	}
	return lines
}

// idColours is the SGR sequence that gives placeholder cells their ids:
// the foreground is the image id's low 24 bits (a 256-colour index when
// they fit in one, which survives a screen limited to 256 colours, else a
// 24-bit colour), the underline colour is the placement id, left unset
// when it is 0 (then the terminal picks any placement of the image).
func idColours(id, placement uint32) string {
	b := make([]byte, 0, 48)
	b = append(b, "\x1b["...)
	b = appendColour(b, 38, id&0xffffff)
	if placement != 0 {
		b = append(b, ';')
		b = appendColour(b, 58, placement&0xffffff)
	}
	return string(append(b, 'm'))
}

// appendColour appends the SGR parameters that set layer (38 foreground,
// 58 underline) to the colour numbered v.
func appendColour(b []byte, layer int, v uint32) []byte {
	b = strconv.AppendInt(b, int64(layer), 10)
	if v < 256 {
		b = append(b, ";5;"...)
		return strconv.AppendUint(b, uint64(v), 10)
	}
	b = append(b, ";2;"...)
	b = strconv.AppendUint(b, uint64(v>>16), 10)
	b = append(b, ';')
	b = strconv.AppendUint(b, uint64(v>>8&0xff), 10)
	b = append(b, ';')
	return strconv.AppendUint(b, uint64(v&0xff), 10)
}
