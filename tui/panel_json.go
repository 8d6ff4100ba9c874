package tui

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/model"
	"github.com/charmbracelet/x/ansi"
)

// jsonView is a one-line summary of the step, then its arguments and its
// result under dim headings: JSON indented and coloured, other text wrapped.
func jsonView(s *model.Step, a stepArgs, width, height int) []string {
	box := newLineBox(width, height)
	sgr := sgrBold
	if s.Status == model.StatusFailed {
		sgr = sgrFailed
	}
	box.add(styled(stepSummary(s, a), sgr, width))

	hasArgs := strings.TrimSpace(s.Args) != "" || len(s.ArgsJSON) > 0
	hasResult := strings.TrimSpace(s.Result) != ""
	if hasArgs {
		raw := []byte(s.ArgsJSON)
		if len(raw) == 0 && json.Valid([]byte(s.Args)) {
			raw = []byte(s.Args)
		}
		if len(raw) > 0 {
			box.add(styled("arguments", sgrFaint, width))
			box.addJSON(raw, jsonIndent)
		} else {
			box.add(styled("arguments (not valid JSON)", sgrFaint, width))
			box.addText(s.Args, jsonIndent)
		}
	}
	if hasResult {
		box.add(styled("result", sgrFaint, width))
		if r := strings.TrimSpace(s.Result); (r[0] == '{' || r[0] == '[') && json.Valid([]byte(r)) {
			box.addJSON([]byte(r), jsonIndent)
		} else {
			box.addText(strings.TrimRight(s.Result, "\n"), jsonIndent)
		}
	}
	if !hasArgs && !hasResult {
		box.add(styled("no arguments or result", sgrFaint, width))
	}
	return box.done()
}

// stepSummary says in one line what the step did: "Deleted internal/x.go",
// "Moved a → b", "Mode → code", "Used <tool>", or the step's label.
func stepSummary(s *model.Step, a stepArgs) string {
	verb := s.Category.Verb(s.Status)
	switch s.Category {
	case model.CategoryDelete:
		path := s.Location
		if path == "" {
			path = a.str("path", "file_path", "filePath", "file", "target")
		}
		if path != "" {
			return verb + " " + oneLine(path)
		}
		return verb
	case model.CategoryMove:
		from := a.str("from", "source", "src", "old_path", "oldPath")
		to := a.str("to", "destination", "dest", "new_path", "newPath")
		switch {
		case from != "" && to != "":
			return verb + " " + oneLine(from) + " → " + oneLine(to)
		case s.Location != "":
			return verb + " " + oneLine(s.Location)
		}
		return verb
	case model.CategorySwitchMode:
		mode := a.str("mode", "mode_id", "modeId")
		if mode == "" {
			mode = s.Location
		}
		if mode != "" {
			return "Mode → " + oneLine(mode)
		}
		return verb
	}
	return stepLabel(s)
}

// indentFor returns indent, or 0 when the width leaves no room after it.
func indentFor(width, indent int) int {
	if width <= indent {
		return 0
	}
	return indent
}

// addText adds agent text made Plain, tabs expanded, each line wrapped to
// the width after indent spaces. Once the box is full the rest is only
// counted, a line of the text for a line.
func (b *lineBox) addText(text string, indent int) {
	indent = indentFor(b.width, indent)
	cells := b.width - indent
	pad := strings.Repeat(" ", indent)
	for first := true; first || text != ""; first = false {
		if b.full() {
			b.more += strings.Count(text, "\n") + 1
			return
		}
		var line string
		line, text, _ = strings.Cut(text, "\n")
		line = Plain(strings.TrimRight(line, "\r"))
		if strings.IndexByte(line, '\t') >= 0 {
			line = expandTabs(line)
		}
		if n := asciiCells(line, 0); n >= 0 && n <= cells {
			b.add(pad + line)
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
			b.add(pad + fit(part, asciiCells(part, 0), cells))
		}
	}
}

// addJSON adds raw JSON indented two spaces a level after indent spaces,
// each line cut to the width and coloured; invalid JSON is added as text.
func (b *lineBox) addJSON(raw []byte, indent int) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		b.addText(string(raw), indent)
		return
	}
	indent = indentFor(b.width, indent)
	cells := b.width - indent
	pad := strings.Repeat(" ", indent)
	text := buf.String()
	for text != "" {
		if b.full() {
			b.more += strings.Count(text, "\n") + 1
			return
		}
		var line string
		line, text, _ = strings.Cut(text, "\n")
		// JSON strings may hold raw bidi overrides and C1 controls: Plain
		// them, and cut before colouring so no colour is cut in half.
		line = Plain(line)
		b.add(pad + colourJSON(fit(line, asciiCells(line, 0), cells)))
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
		b.WriteString(sgrReset)
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
				paint(jsonKey, line[i:j])
			} else {
				paint(jsonString, line[i:j])
			}
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(line) && strings.IndexByte("0123456789.eE+-", line[j]) >= 0 {
				j++
			}
			paint(jsonNumber, line[i:j])
			i = j
		case c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			paint(jsonLiteral, line[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// firstLine is the first non-blank line of agent text, flat and safe.
func firstLine(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if l := oneLine(line); l != "" {
			return l
		}
	}
	return ""
}
