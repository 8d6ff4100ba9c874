package computer

// The computer panel's views, one per step category, and the JSON view every
// one of them falls back to. Each returns at most height lines of at most
// width cells (PanelLines pads them), or nil when the step lacks what the
// view shows.

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

const (
	// maxQueryPattern is the longest search query compiled to highlight
	// matches; Go's regexp is linear, this only bounds compile cost.
	maxQueryPattern = 512
	// jsonIndent is how far the arguments and result sit under their heading.
	jsonIndent = 2
)

// executeView is "$ <command>" then the output as a terminal shows it
// (colours kept). Without a command in the arguments or the location, the
// agent's title stands in: as the command when it is one code span
// ("`go test`", as agents title a shell call), else as a heading.
func executeView(s *model.Step, a stepArgs, width, height int, whole bool) []string {
	cmd := commandOf(s, a)
	heading := ""
	if cmd == "" {
		if t := strings.TrimSpace(s.Title); len(t) > 2 && t[0] == '`' && t[len(t)-1] == '`' && strings.Count(t, "`") == 2 {
			cmd = t[1 : len(t)-1]
		} else {
			heading = t
		}
	}
	if cmd == "" && heading == "" && s.Result == "" {
		return nil
	}
	lines := make([]string, 0, height)
	switch {
	case cmd != "" && whole && width > 4:
		// A view that scrolls shows the whole command, wrapped.
		for i, part := range strings.Split(ansi.Hardwrap(oneLine(cmd), width-2, true), "\n") {
			w := render.NewLine(width)
			if i == 0 {
				w.Put("$ ", styles.ParamDim)
			} else {
				w.Spaces(2)
			}
			w.Put(part, styles.ParamBold)
			lines = append(lines, w.String())
		}
	case cmd != "":
		w := render.NewLine(width)
		w.Put("$ ", styles.ParamDim)
		w.Put(oneLine(cmd), styles.ParamBold)
		lines = append(lines, w.String())
	case heading != "":
		lines = append(lines, render.Styled(oneLine(heading), styles.Bold, width))
	}
	if rest := height - len(lines); rest > 0 {
		terminal := render.TerminalLines
		if whole {
			terminal = render.TerminalHead
		}
		if out := terminal(unfenced(s.Result), width, rest); len(out) > 0 {
			lines = append(lines, out...)
		} else if s.Status.Done() {
			lines = append(lines, render.Styled("no output", styles.Faint, width))
		}
	}
	return lines
}

// editView is the diff of an edit, with the tool's one-line summary under
// it, or its error over it when the edit failed. The step's own diffs (old
// and new text per file, as ACP sends them) come first, drawn as a unified
// diff per file; then a diff in the arguments, then a result that is one.
func editView(s *model.Step, a stepArgs, width, height int) []string {
	diff := ""
	if len(s.Diffs) > 0 {
		diff = render.UnifiedDiffs(s.Diffs)
	} else {
		diff = a.str("diff", "patch", "unified_diff")
	}
	fromResult := false
	if diff == "" && looksLikeDiff(s.Result) {
		diff, fromResult = s.Result, true
	}
	if diff == "" {
		return nil
	}
	note := ""
	if !fromResult {
		note = firstLine(s.Result)
	}
	failed := s.Status == model.StatusFailed
	var lines []string
	if failed && note != "" {
		lines = append(lines, render.Styled("✗ "+note, styles.Failed, width))
	}
	if height <= len(lines) {
		return lines
	}
	body := render.DiffLines(diff, width, height-len(lines))
	if len(body) == 0 {
		return nil
	}
	lines = append(lines, body...)
	if !failed && note != "" && len(lines)+2 <= height {
		lines = append(lines, "", render.Styled(note, styles.Faint, width))
	}
	return lines
}

// looksLikeDiff reports whether text is a unified diff: it starts as one
// and has a hunk.
func looksLikeDiff(text string) bool {
	start := strings.HasPrefix(text, "--- ") || strings.HasPrefix(text, "diff ") ||
		strings.HasPrefix(text, "@@ ") || strings.HasPrefix(text, "Index: ")
	return start && (strings.HasPrefix(text, "@@ ") || strings.Contains(text, "\n@@ "))
}

// readView is the file text with syntax colours. A failed read has an
// error for a result, not the file, so it has no read view.
func readView(s *model.Step, a stepArgs, width, height int) []string {
	if s.Result == "" || s.Status == model.StatusFailed {
		return nil
	}
	path := s.Location
	if len(s.Locations) > 0 {
		path = s.Locations[0].Path // Location may end in ":line"
	}
	if path == "" {
		path = a.str("path", "file_path", "filePath", "file")
	}
	return render.SourceLines(path, unfenced(s.Result), 1, width, height)
}

// searchView is the query line, then the result lines with the query's
// matches highlighted and grep's "path:line:" prefixes coloured.
func searchView(s *model.Step, a stepArgs, width, height int) []string {
	query := a.str("pattern", "query", "q", "regex", "search")
	where := a.str("path", "directory", "dir", "glob", "include")
	if query == "" && s.Location == "" && s.Result == "" {
		return nil
	}
	box := render.NewLineBox(width, height)
	w := render.NewLine(width)
	w.Put(render.CategoryIcon(model.CategorySearch)+" ", styles.ParamDim)
	if query != "" {
		w.Put(oneLine(query), styles.ParamBold)
		if where != "" {
			w.Put(" in "+oneLine(where), styles.ParamDim)
		}
	} else {
		w.Put(oneLine(s.Location), styles.ParamBold)
	}
	box.Add(w.String())

	text := strings.TrimRight(s.Result, "\n")
	if text == "" {
		if s.Status.Done() {
			box.Add(render.Styled("no matches", styles.Faint, width))
		}
		return box.Done()
	}
	re := queryMatcher(query, a.flag("-i", "case_insensitive", "ignore_case", "ignoreCase", "caseInsensitive"))
	for text != "" {
		if box.Full() {
			box.Skip(strings.Count(text, "\n") + 1)
			break
		}
		var line string
		line, text, _ = strings.Cut(text, "\n")
		box.Add(searchLine(line, re, width))
	}
	return box.Done()
}

// queryMatcher compiles a search query to highlight its matches: as the
// regular expression grep tools take, or literally when it is not one.
func queryMatcher(query string, foldCase bool) *regexp.Regexp {
	if query == "" || len(query) > maxQueryPattern {
		return nil
	}
	prefix := ""
	if foldCase {
		prefix = "(?i)"
	}
	re, err := regexp.Compile(prefix + query)
	if err != nil {
		re, err = regexp.Compile(prefix + regexp.QuoteMeta(query))
	}
	if err != nil {
		return nil
	}
	return re
}

// searchLine draws one result line cut to width: a grep "path:line:" (or
// "path:line-" context) prefix in colour, then the text with matches of re
// highlighted.
func searchLine(line string, re *regexp.Regexp, width int) string {
	line = render.ExpandDiffTabs(sanitize.Plain(strings.TrimRight(line, "\r")))
	var b strings.Builder
	text := line
	if i := strings.IndexByte(line, ':'); i > 0 {
		j := i + 1
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(line) && (line[j] == ':' || line[j] == '-') {
			b.WriteString(styles.MatchPath + line[:i] + styles.Reset + ":" + styles.GreenFg + line[i+1:j] + styles.Reset)
			b.WriteByte(line[j])
			text = line[j+1:]
		}
	}
	// Only the start of the text can be shown: a minified line may be a
	// megabyte, and matching all of it would buy nothing.
	if limit := 4*width + 4; len(text) > limit {
		for limit > 0 && !utf8.RuneStart(text[limit]) {
			limit--
		}
		text = text[:limit]
	}
	prev := 0
	if re != nil {
		for _, m := range re.FindAllStringIndex(text, -1) {
			if m[1] == m[0] {
				continue // an empty match marks nothing
			}
			b.WriteString(text[prev:m[0]])
			b.WriteString(styles.Found + text[m[0]:m[1]] + styles.Reset)
			prev = m[1]
		}
	}
	b.WriteString(text[prev:])
	out := b.String()
	if strings.IndexByte(out, 0x1b) < 0 {
		return render.Fit(out, render.ASCIICells(out, 0), width)
	}
	return ansi.Truncate(out, width, "…") + styles.Reset
}

// fetchView is the URL line, the page's screenshot in up to half the
// height, then the page text wrapped.
func fetchView(s *model.Step, a stepArgs, img *images.Picture, width, height, limit int) []string {
	url := s.Location
	if url == "" {
		url = a.str("url", "uri", "href")
	}
	text := strings.TrimRight(s.Result, "\n")
	if url == "" && text == "" && img == nil {
		return nil
	}
	var lines []string
	if url != "" {
		lines = append(lines, render.Styled(oneLine(url), styles.URL, width))
	}
	if img != nil {
		if rows := min(height/2, height-len(lines)); rows >= panelShotMinRows {
			lines = append(lines, screenshotLines(img, width, rows)...)
			if text != "" && len(lines)+2 <= height {
				lines = append(lines, "")
			}
		}
	}
	if text != "" && len(lines) < limit {
		box := render.NewLineBox(width, limit-len(lines))
		box.AddText(text, 0)
		lines = append(lines, box.Done()...)
	}
	if len(lines) == 0 {
		return nil
	}
	return lines
}

// thinkView is the thought wrapped to the width: the tool's "thought"
// argument, or its result when the thought came back that way.
func thinkView(s *model.Step, a stepArgs, width, height int) []string {
	t := a.str("thought", "thinking", "reasoning", "text", "content")
	if t == "" {
		t = s.Result
	}
	t = strings.TrimRight(t, "\n")
	if strings.TrimSpace(t) == "" {
		return nil
	}
	box := render.NewLineBox(width, height)
	box.AddText(t, 0)
	return box.Done()
}
