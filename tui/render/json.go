package render

// This file adds text and JSON to a LineBox: agent text made safe and
// wrapped, JSON indented and coloured.

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

const (
	// maxWrapBytes is the longest line AddText wraps whole, so that
	// "… N more lines" is exact; longer ones are cut first.
	maxWrapBytes = 64 << 10
)

// indentFor returns indent, or 0 when the width leaves no room after it.
func indentFor(width, indent int) int {
	if width <= indent {
		return 0
	}
	return indent
}

// AddText adds agent text made Plain, tabs expanded, each line wrapped to
// the width after indent spaces. Once the box is full the rest is only
// counted, a line of the text for a line.
func (b *LineBox) AddText(text string, indent int) {
	indent = indentFor(b.width, indent)
	cells := b.width - indent
	pad := strings.Repeat(" ", indent)
	for first := true; first || text != ""; first = false {
		if b.Full() {
			b.more += strings.Count(text, "\n") + 1
			return
		}
		var line string
		line, text, _ = strings.Cut(text, "\n")
		line = sanitize.Plain(strings.TrimRight(line, "\r"))
		if strings.IndexByte(line, '\t') >= 0 {
			line = ExpandTabs(line)
		}
		if n := ASCIICells(line, 0); n >= 0 && n <= cells {
			b.Add(pad + line)
			continue
		}
		// A line too long to wrap cheaply is wrapped only as far as can
		// be shown (four bytes a cell covers any one-cell character);
		// then the count of lines left out is short of the truth.
		if limit := max((b.limit-len(b.lines)+1)*cells*4+4, maxWrapBytes); len(line) > limit {
			for limit > 0 && !utf8.RuneStart(line[limit]) {
				limit--
			}
			line = line[:limit]
		}
		for part := range strings.SplitSeq(ansi.Wrap(line, cells, ""), "\n") {
			b.Add(pad + Fit(part, ASCIICells(part, 0), cells))
		}
	}
}

// AddJSON adds raw JSON indented two spaces a level after indent spaces,
// each line cut to the width and coloured; invalid JSON is added as text.
func (b *LineBox) AddJSON(raw []byte, indent int) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		b.AddText(string(raw), indent)
		return
	}
	indent = indentFor(b.width, indent)
	cells := b.width - indent
	pad := strings.Repeat(" ", indent)
	text := buf.String()
	for text != "" {
		if b.Full() {
			b.more += strings.Count(text, "\n") + 1
			return
		}
		var line string
		line, text, _ = strings.Cut(text, "\n")
		// JSON strings may hold raw bidi overrides and C1 controls: Plain
		// them, and cut before colouring so no colour is cut in half.
		line = sanitize.Plain(line)
		b.Add(pad + colourJSON(Fit(line, ASCIICells(line, 0), cells)))
	}
}

// colourJSON colours one line of indented JSON: keys blue, strings green,
// numbers yellow, true/false/null magenta. The line may be cut short.
func colourJSON(line string) string {
	var b strings.Builder
	b.Grow(len(line) + 16)
	paint := func(sgr, tok string) {
		b.WriteString(sgr)
		b.WriteString(tok)
		b.WriteString(styles.Reset)
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(line) && line[j] != '"' {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			k := j
			for k < len(line) && line[k] == ' ' {
				k++
			}
			if k < len(line) && line[k] == ':' {
				paint(styles.JSONKey, line[i:j])
			} else {
				paint(styles.JSONString, line[i:j])
			}
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(line) && strings.IndexByte("0123456789.eE+-", line[j]) >= 0 {
				j++
			}
			paint(styles.JSONNumber, line[i:j])
			i = j
		case c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			paint(styles.JSONLiteral, line[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
