package images

// A picture as text, for screens without colours (NO_COLOR, --images off):
// half blocks without their colours would be a grey smear, so the picture
// is named instead, with its size in pixels.

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// textForms are the ways a w×h picture is named, longest first, each as
// the lines it takes: "[screenshot 1280×800]" on one line, on two, or
// just its size.
func textForms(w, h int) [][]string {
	size := strconv.Itoa(w) + "×" + strconv.Itoa(h)
	return [][]string{
		{"[screenshot " + size + "]"},
		{"[screenshot", size + "]"},
		{"[" + size + "]"},
	}
}

// textForm is the longest form that fits cols×rows cells, or the first
// cut to cols cells with "…".
func textForm(w, h, cols, rows int) []string {
	forms := textForms(w, h)
	for _, f := range forms {
		if len(f) > rows {
			continue
		}
		fits := true
		for _, l := range f {
			fits = fits && ansi.StringWidth(l) <= cols
		}
		if fits {
			return f
		}
	}
	return []string{ansi.Truncate(forms[0][0], cols, "…")}
}

// textRows is how many rows the text of a w×h picture takes in a box
// cols wide and at most maxRows high.
func textRows(w, h, cols, maxRows int) int {
	if cols < 1 || maxRows < 1 {
		return 0
	}
	return min(maxRows, len(textForm(w, h, cols, maxRows)))
}

// textLines draws the text of a w×h picture centred in cols×rows cells:
// exactly rows lines of exactly cols cells, without colours.
func textLines(w, h, cols, rows int) []string {
	if cols < 1 || rows < 1 {
		return nil
	}
	form := textForm(w, h, cols, rows)
	blank := strings.Repeat(" ", cols)
	lines := make([]string, rows)
	top := (rows - len(form)) / 2
	for i := range lines {
		j := i - top
		if j < 0 || j >= len(form) {
			lines[i] = blank
			continue
		}
		n := ansi.StringWidth(form[j])
		left := (cols - n) / 2
		lines[i] = strings.Repeat(" ", left) + form[j] + strings.Repeat(" ", cols-n-left)
	}
	return lines
}
