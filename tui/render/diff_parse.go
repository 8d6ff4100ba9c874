package render

import (
	"strconv"
	"strings"
)

// diffKind is what a line of a unified diff is.
type diffKind uint8

const (
	diffPlain   diffKind = iota // text outside any hunk, or not a diff at all
	diffFile                    // diff --git, --- and +++ file headers
	diffMeta                    // git's extended headers: index, mode, rename, …
	diffHunk                    // @@ -a,b +c,d @@
	diffContext                 // ' ' unchanged line
	diffRemoved                 // '-' line of the old file
	diffAdded                   // '+' line of the new file
	diffNote                    // "\ No newline at end of file"
)

// diffLine is one parsed line: its kind, its text without the marker, and
// its old and new line numbers (0 when it has none on that side).
type diffLine struct {
	kind     diffKind
	old, new int
	text     string
}

// parseDiff splits text into classified lines and returns them with the
// number of digits the widest line number needs. Text without a single
// valid hunk header is not a diff: all its lines come back as diffPlain.
func parseDiff(text string) (lines []diffLine, digits int) {
	raw := strings.Split(text, "\n")
	if n := len(raw); raw[n-1] == "" {
		raw = raw[:n-1] // a trailing newline ends the last line, it does not start one
	}
	lines = make([]diffLine, 0, len(raw))
	var oldN, newN, oldLeft, newLeft, maxN int
	inHunk, sawHunk := false, false
	for i, s := range raw {
		if inHunk {
			kind, ok := bodyKind(s)
			if ok && oldLeft <= 0 && newLeft <= 0 {
				// The counts are used up. Keep reading body lines anyway
				// (a miscounted hunk), unless this starts the next file.
				ok = s != "" && !(strings.HasPrefix(s, "--- ") && i+1 < len(raw) && strings.HasPrefix(raw[i+1], "+++ "))
			}
			if ok {
				l := diffLine{kind: kind}
				if len(s) > 0 {
					l.text = s[1:]
				}
				switch kind {
				case diffContext:
					l.old, l.new = oldN, newN
					oldN, newN = oldN+1, newN+1
					oldLeft, newLeft = oldLeft-1, newLeft-1
				case diffRemoved:
					l.old = oldN
					oldN++
					oldLeft--
				case diffAdded:
					l.new = newN
					newN++
					newLeft--
				case diffNote:
					l.text = s
				}
				maxN = max(maxN, l.old, l.new)
				lines = append(lines, l)
				continue
			}
			inHunk = false
		}
		if o, oc, n, nc, ok := parseHunkHeader(s); ok {
			oldN, oldLeft, newN, newLeft = o, oc, n, nc
			// An empty range names the line before it (git's "-0,0").
			if oc == 0 {
				oldN++
			}
			if nc == 0 {
				newN++
			}
			inHunk, sawHunk = true, true
			lines = append(lines, diffLine{kind: diffHunk, text: s})
			continue
		}
		lines = append(lines, diffLine{kind: headerKind(s), text: s})
	}
	if !sawHunk {
		for i := range lines {
			lines[i].kind = diffPlain
		}
		return lines, 0
	}
	return lines, len(strconv.Itoa(maxN))
}

// bodyKind classifies a line inside a hunk by its first byte; an empty line
// is a context line whose trailing space an editor removed.
func bodyKind(s string) (diffKind, bool) {
	if s == "" {
		return diffContext, true
	}
	switch s[0] {
	case ' ':
		return diffContext, true
	case '-':
		return diffRemoved, true
	case '+':
		return diffAdded, true
	case '\\':
		return diffNote, true
	}
	return 0, false
}

// headerKind classifies a line outside any hunk.
func headerKind(s string) diffKind {
	switch {
	case strings.HasPrefix(s, "diff "), strings.HasPrefix(s, "--- "), strings.HasPrefix(s, "+++ "):
		return diffFile
	case strings.HasPrefix(s, "index "), strings.HasPrefix(s, "new file mode "),
		strings.HasPrefix(s, "deleted file mode "), strings.HasPrefix(s, "old mode "),
		strings.HasPrefix(s, "new mode "), strings.HasPrefix(s, "similarity index "),
		strings.HasPrefix(s, "dissimilarity index "), strings.HasPrefix(s, "rename from "),
		strings.HasPrefix(s, "rename to "), strings.HasPrefix(s, "copy from "),
		strings.HasPrefix(s, "copy to "), strings.HasPrefix(s, "Binary files "):
		return diffMeta
	}
	return diffPlain
}

// parseHunkHeader reads "@@ -o[,oc] +n[,nc] @@[ section]"; an omitted count is 1.
func parseHunkHeader(s string) (o, oc, n, nc int, ok bool) {
	rest, found := strings.CutPrefix(s, "@@ -")
	if !found {
		return
	}
	ranges, _, found := strings.Cut(rest, " @@")
	if !found {
		return
	}
	oldRange, newRange, found := strings.Cut(ranges, " +")
	if !found {
		return
	}
	if o, oc, ok = parseRange(oldRange); !ok {
		return
	}
	n, nc, ok = parseRange(newRange)
	return
}

func parseRange(s string) (start, count int, ok bool) {
	startText, countText, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(startText)
	if err != nil || start < 0 || start > maxDiffLineNumber {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		count, err = strconv.Atoi(countText)
		if err != nil || count < 0 || count > maxDiffLineNumber {
			return 0, 0, false
		}
	}
	return start, count, true
}

// ExpandDiffTabs replaces each tab with spaces up to the next diffTabStop
// column of the line's text (the marker and gutter not counted, so both
// sides of a split row indent alike).
func ExpandDiffTabs(s string) string { return expandTabsAt(s, diffTabStop) }
