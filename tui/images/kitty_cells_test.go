package images

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"

	"github.com/agentwatch/agentwatch/tui/styles"
)

// cell is what one placeholder cell says, read back the way the
// protocol's specification reads it.
type cell struct {
	id, placement uint32
	row, col, msb int
}

// diacriticIndex numbers the protocol's diacritics.
var diacriticIndex = func() map[rune]int {
	m := map[rune]int{}
	for i := range kittyMaxSpan {
		m[kitty.Diacritic(i)] = i
	}
	return m
}()

var sgrParams = regexp.MustCompile(`^\x1b\[([0-9;]*)m`)

// readCells reads a line of placeholder cells back: the colours set before
// them (foreground: the id's low bits, 256-colour or 24-bit; underline:
// the placement) and each cell's diacritics (row, column, the id's high
// byte). It fails on anything else before the reset.
//
// Blanks around the cells (a picture centred in a box) are skipped, and a
// blank line has no cells.
func readCells(t *testing.T, line string) []cell {
	t.Helper()
	line = strings.Trim(line, " ")
	if line == "" {
		return nil
	}
	m := sgrParams.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("line does not start with colours: %q", line)
	}
	var fg, ul uint32
	ps := strings.Split(m[1], ";")
	for i := 0; i < len(ps); {
		layer := ps[i]
		var v uint32
		switch ps[i+1] {
		case "5":
			n, _ := strconv.Atoi(ps[i+2])
			v, i = uint32(n), i+3
		case "2":
			r, _ := strconv.Atoi(ps[i+2])
			g, _ := strconv.Atoi(ps[i+3])
			b, _ := strconv.Atoi(ps[i+4])
			v, i = uint32(r<<16|g<<8|b), i+5
		default:
			t.Fatalf("colour %q is neither 256-colour nor 24-bit", m[1])
		}
		switch layer {
		case "38":
			fg = v
		case "58":
			ul = v
		default:
			t.Fatalf("unexpected SGR layer %s in %q", layer, m[1])
		}
	}
	body, ok := strings.CutSuffix(line[len(m[0]):], styles.Reset)
	if !ok {
		body = strings.TrimRight(line[len(m[0]):], " ")
		body, ok = strings.CutSuffix(body, styles.Reset)
		if !ok {
			t.Fatalf("line does not end with a reset (then blanks): %q", line)
		}
	}
	var cells []cell
	rs := []rune(body)
	for i := 0; i < len(rs); {
		if rs[i] != kitty.Placeholder {
			t.Fatalf("rune %U at %d is not the placeholder: %q", rs[i], i, line)
		}
		var marks []int
		for i++; i < len(rs) && rs[i] != kitty.Placeholder; i++ {
			d, ok := diacriticIndex[rs[i]]
			if !ok {
				t.Fatalf("rune %U is not a row/column diacritic", rs[i])
			}
			marks = append(marks, d)
		}
		if len(marks) < 2 || len(marks) > 3 {
			t.Fatalf("cell has %d diacritics, want 2 or 3 (row, column, high byte)", len(marks))
		}
		c := cell{row: marks[0], col: marks[1], placement: ul}
		if len(marks) == 3 {
			c.msb = marks[2]
		}
		c.id = uint32(c.msb)<<24 | fg
		cells = append(cells, c)
	}
	return cells
}

func TestDiacriticTable(t *testing.T) {
	// The specification's own examples: 0 is U+0305, 1 U+030D, 2 U+030E.
	for i, want := range []rune{'\u0305', '\u030D', '\u030E'} {
		if got := kitty.Diacritic(i); got != want {
			t.Errorf("diacritic %d is %U, want %U", i, got, want)
		}
	}
	if len(diacriticIndex) != kittyMaxSpan {
		t.Errorf("%d distinct diacritics among the first %d", len(diacriticIndex), kittyMaxSpan)
	}
	for r := range diacriticIndex {
		if !unicode.Is(unicode.Mn, r) {
			t.Errorf("diacritic %U is not a combining mark: it would take a cell of its own", r)
		}
	}
	// Past the table kitty.Diacritic gives the first again: kittyMaxSpan
	// is the table's length, not less.
	if kitty.Diacritic(kittyMaxSpan) != kitty.Diacritic(0) {
		t.Errorf("the table has more than %d diacritics", kittyMaxSpan)
	}
}

func TestPlaceholderLinesSpecExamples(t *testing.T) {
	// The specification's 2×2 placeholder for image 42.
	lines := placeholderLines(42, 0, 2, 2)
	want := []string{
		"\x1b[38;5;42m\U0010EEEE\u0305\u0305\U0010EEEE\u0305\u030D" + styles.Reset,
		"\x1b[38;5;42m\U0010EEEE\u030D\u0305\U0010EEEE\u030D\u030D" + styles.Reset,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("row %d:\n got %q\nwant %q", i, lines[i], want[i])
		}
	}
	// Its example of a high byte: 33554474 = 42 + (2 << 24), a third
	// diacritic U+030E on every cell.
	lines = placeholderLines(42+2<<24, 0, 2, 2)
	want = []string{
		"\x1b[38;5;42m\U0010EEEE\u0305\u0305\u030E\U0010EEEE\u0305\u030D\u030E" + styles.Reset,
		"\x1b[38;5;42m\U0010EEEE\u030D\u0305\u030E\U0010EEEE\u030D\u030D\u030E" + styles.Reset,
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("row %d with a high byte:\n got %q\nwant %q", i, lines[i], want[i])
		}
	}
}

func TestPlaceholderLinesCells(t *testing.T) {
	tests := []struct {
		name              string
		id, placement     uint32
		cols, rows, shown int
		sgr               string
	}{
		{"256-colour id and placement", 7, 3, 12, 4, 12, "\x1b[38;5;7;58;5;3m"},
		{"high byte", 5<<24 | 200, 1, 3, 2, 3, "\x1b[38;5;200;58;5;1m"},
		{"24-bit id", 0x123456, 0, 4, 1, 4, "\x1b[38;2;18;52;86m"},
		{"24-bit placement", 9, 0x10203, 2, 2, 2, "\x1b[38;5;9;58;2;1;2;3m"},
		{"widest span", 1, 1, kittyMaxSpan, 2, kittyMaxSpan, "\x1b[38;5;1;58;5;1m"},
		{"wider than the protocol numbers", 1, 1, kittyMaxSpan + 3, 1, kittyMaxSpan, "\x1b[38;5;1;58;5;1m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := placeholderLines(tc.id, tc.placement, tc.cols, tc.rows)
			if len(lines) != tc.rows {
				t.Fatalf("%d lines, want %d", len(lines), tc.rows)
			}
			for r, l := range lines {
				if !strings.HasPrefix(l, tc.sgr) {
					t.Errorf("row %d starts %q, want colours %q", r, l[:min(len(l), 30)], tc.sgr)
				}
				if w := ansi.StringWidth(l); w != tc.cols {
					t.Errorf("row %d is %d cells, want %d", r, w, tc.cols)
				}
				cells := readCells(t, l)
				if len(cells) != tc.shown {
					t.Fatalf("row %d has %d placeholder cells, want %d", r, len(cells), tc.shown)
				}
				for c, got := range cells {
					want := cell{id: tc.id, placement: tc.placement, row: r, col: c, msb: int(tc.id >> 24)}
					if got != want {
						t.Fatalf("row %d cell %d reads %+v, want %+v", r, c, got, want)
					}
				}
			}
		})
	}
	if placeholderLines(1, 1, 0, 3) != nil || placeholderLines(1, 1, 3, 0) != nil {
		t.Error("an empty box gives lines")
	}
	// Rows past the last diacritic are blank.
	lines := placeholderLines(1, 1, 2, kittyMaxSpan+1)
	if last := lines[kittyMaxSpan]; last != "  " {
		t.Errorf("row %d is %q, want blanks", kittyMaxSpan, last)
	}
}
