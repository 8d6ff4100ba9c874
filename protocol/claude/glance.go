package claude

// This file glances at a session file: its head and tail say what a
// thread list needs of the session (its id, title, project, first and
// last times) without translating the lines between.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// Glance is what the head and tail of a session file say of the session:
// head holds the file's first lines and tail its last ones, each only
// whole lines (tail empty when head holds the whole file). The title is
// the one a fold of the whole file gives its thread when the lines that
// name it are in head or tail: the last title the user set, else the last
// one made for them (ai-title, summary), else the first prompt. Only the
// few lines that can say these are decoded.
func Glance(head, tail []byte) model.Glance {
	var g model.Glance
	var named string
	rank := 0
	prompt, promptFound := "", false
	title := func(r int, s string) {
		if s = strings.Join(strings.Fields(s), " "); s != "" && r >= rank {
			named, rank = s, r
		}
	}
	scan := func(b []byte, isHead bool) {
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			line := b
			if i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			if isHead && g.ID != "" && g.Project != "" && !g.First.IsZero() && promptFound {
				return
			}
			chained := bytes.Contains(line, []byte(`"type":"user"`)) || bytes.Contains(line, []byte(`"type":"assistant"`)) || bytes.Contains(line, []byte(`"type":"system"`))
			if chained {
				if at := parseTime(stringMember(line, "timestamp")); !at.IsZero() {
					if g.First.IsZero() {
						g.First = at
					}
					g.Last = at
				}
				if g.Project == "" {
					g.Project = stringMember(line, "cwd")
				}
			}
			if g.ID == "" {
				g.ID = stringMember(line, "sessionId")
			}
			userLine := bytes.Contains(line, []byte(`"type":"user"`))
			if !isTitle(line) && (promptFound || !userLine) {
				continue
			}
			var l Line
			if json.Unmarshal(bytes.TrimSpace(line), &l) != nil {
				continue
			}
			switch l.Type {
			case "custom-title":
				title(3, l.CustomTitle)
			case "ai-title":
				title(2, l.AITitle)
			case "summary":
				title(2, l.Summary)
			case "user":
				if promptFound || l.Message == nil || l.IsCompactSummary || l.IsMeta || l.IsSidechain {
					continue
				}
				bs := blocks(l.Message.Content)
				if hasResult(bs) {
					continue
				}
				prompt, promptFound = promptText(bs)
			}
		}
	}
	scan(head, true)
	// The tail is not walked line by line: its titles are found by their
	// markers, and its last time from its end.
	for _, b := range [][]byte{head, tail} {
		var titleLines []int // where they start in b, in the file's order
		// The markers are parts of isTitle's whose first bytes are rare in
		// a session's lines, so that the search skips ahead from one to
		// the next rather than comparing at every byte.
		for _, m := range [][]byte{[]byte(`-title"`), []byte(`:"summary"`)} {
			for off := 0; ; {
				i := bytes.Index(b[off:], m)
				if i < 0 {
					break
				}
				titleLines = append(titleLines, bytes.LastIndexByte(b[:off+i], '\n')+1)
				off += i + len(m)
			}
		}
		slices.Sort(titleLines)
		for _, start := range slices.Compact(titleLines) {
			end := bytes.IndexByte(b[start:], '\n')
			if end < 0 {
				end = len(b) - start
			}
			if line := b[start : start+end]; isTitle(line) {
				scan(line, false)
			}
		}
	}
	// The last time is at the end: of the tail, else (a tail of lines
	// without one, or none) of the head, past what its scan read.
	last := func(end []byte) bool {
		for b := bytes.TrimRight(end, "\n"); len(b) > 0; {
			i := bytes.LastIndexByte(b, '\n')
			line := b[i+1:]
			b = b[:max(i, 0)]
			if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) && !bytes.Contains(line, []byte(`"type":"system"`)) {
				continue
			}
			if at := parseTime(stringMember(line, "timestamp")); !at.IsZero() {
				if g.First.IsZero() {
					g.First = at
				}
				g.Last = at
				return true
			}
		}
		return false
	}
	if len(tail) > 0 && !last(tail) {
		g.Untimed = true
		last(head)
	} else if len(tail) == 0 {
		last(head) // the whole file: its last time is at its end
	}
	g.Title = named
	if g.Title == "" && promptFound {
		g.Title = strings.Join(strings.Fields(prompt), " ")
	}
	return g
}

// isTitle reports whether a line may be one that titles the session.
func isTitle(line []byte) bool {
	return bytes.Contains(line, []byte(`"custom-title"`)) || bytes.Contains(line, []byte(`"ai-title"`)) || bytes.Contains(line, []byte(`"type":"summary"`))
}

// hasResult reports whether blocks hold a tool's result.
func hasResult(bs []Block) bool {
	for i := range bs {
		if bs[i].Type == "tool_result" {
			return true
		}
	}
	return false
}

// stringMember is the value of the first member name of a JSON line
// whose value is a string without escapes ("" when there is none): the
// ids, folders and times Claude Code writes, found without decoding the
// line. A member of that name nested deeper is taken too when it comes
// first; Claude Code writes the envelope's members before the message.
func stringMember(line []byte, name string) string {
	key := `"` + name + `":"`
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return ""
	}
	return strings.Clone(string(rest[:j]))
}
