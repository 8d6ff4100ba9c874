package transcript

// This file splits items with a very long text (a 50 MB message, an
// endless error) into parts, so that the transcript renders, wraps and
// caches only the parts in view: one long item costs what its visible
// rows cost, and a key or a resize is answered in the next frame.

import (
	"strings"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/model"
)

// Texts longer than partMin bytes are drawn in parts of about
// partSize bytes, cut at paragraph breaks outside code fences where there
// are any, else at line breaks, else anywhere between two characters.
const (
	partMin  = 64 << 10
	partSize = 16 << 10
)

// listEntry is one row group of the virtual list: part part of item item (an
// index into the transcript's items).
type listEntry struct {
	item, part int
}

// textParts is where an item's text is cut: the start of every part after
// the first, for the text of length n it was computed from. The first firm
// cuts were made with the text beyond them long enough that more text
// cannot move them.
type textParts struct {
	n    int
	cuts []int
	firm int
}

// count is how many parts the cuts make.
func (p *textParts) count() int { return len(p.cuts) + 1 }

// span is where part k starts and ends in the text.
func (p *textParts) span(k int) (int, int) {
	from, to := 0, p.n
	if k > 0 {
		from = p.cuts[k-1]
	}
	if k < len(p.cuts) {
		to = p.cuts[k]
	}
	return from, to
}

// splits reports whether the transcript draws it in parts: a long text of
// a kind drawn as wrapped text (a collapsed reasoning item is one line).
func (t *Transcript) splits(it *model.Item) bool {
	if len(it.Text) <= partMin {
		return false
	}
	switch it.Kind {
	case model.ItemMessage, model.ItemError, model.ItemDiagnostic:
		return true
	case model.ItemReasoning:
		return t.expanded[it.Seq]
	}
	return false
}

// index rebuilds the virtual list after the items or an expansion changed:
// one entry per item, one per part for items that split, none for items
// left out (a thread's title, tool calls the filter hides). Cuts of a text
// that only grew are kept up to its last cut, so a long message that
// streams is not cut again from the start at every batch. With no long
// item and none left out the list is the items themselves (entries is nil).
func (t *Transcript) index() {
	t.entries = t.entries[:0]
	if t.entries == nil {
		// Not nil even when every item is left out: nil means all of them.
		t.entries = []listEntry{}
	}
	plain := true
	for _, it := range t.items {
		if t.splits(it) || leftOut(it) {
			plain = false
			break
		}
	}
	if plain && t.keep == nil {
		t.entries, t.parts = nil, nil
		return
	}
	parts := make(map[uint64]*textParts)
	for i, it := range t.items {
		if leftOut(it) || t.keep != nil && it.Kind == model.ItemToolCall && it.Step >= 0 && !t.keep(it.Step) {
			continue
		}
		if !t.splits(it) {
			t.entries = append(t.entries, listEntry{item: i})
			continue
		}
		p := cutParts(it.Text, t.parts[it.Seq])
		parts[it.Seq] = p
		for k := range p.count() {
			t.entries = append(t.entries, listEntry{item: i, part: k})
		}
	}
	t.parts = parts
}

// count is the number of entries of the virtual list.
func (t *Transcript) count() int {
	if t.entries == nil {
		return len(t.items)
	}
	return len(t.entries)
}

// entry is entry e of the virtual list.
func (t *Transcript) entry(e int) listEntry {
	if t.entries == nil {
		return listEntry{item: e}
	}
	return t.entries[e]
}

// partText is the text of part k of it, whole when it does not split.
func (t *Transcript) partText(it *model.Item, k int) (text string, first, last bool) {
	p := t.parts[it.Seq]
	if p == nil || p.n > len(it.Text) {
		return it.Text, true, true
	}
	from, to := p.span(k)
	return it.Text[from:to], k == 0, k == p.count()-1
}

// cutParts cuts text into parts, keeping the firm cuts of prev (made for a
// shorter text) when they are still cuts of text.
func cutParts(text string, prev *textParts) *textParts {
	p := &textParts{n: len(text)}
	from := 0
	if prev != nil && prev.n <= len(text) && prev.firm > 0 {
		keep := prev.cuts[:prev.firm]
		ok := true
		for _, c := range keep {
			if c <= 0 || c >= len(text) || !utf8.RuneStart(text[c]) {
				ok = false
				break
			}
		}
		if ok {
			p.cuts = append(p.cuts, keep...)
			p.firm = len(keep)
			from = keep[len(keep)-1]
		}
	}
	for len(text)-from > partSize+partSize/2 {
		if len(text)-from >= cutWindow {
			p.firm = len(p.cuts) + 1
		}
		c := nextCut(text, from)
		p.cuts = append(p.cuts, c)
		from = c
	}
	return p
}

// cutWindow is how far past a part's start nextCut looks.
const cutWindow = 4 * partSize

// nextCut is where the part starting at from ends: the first paragraph
// break outside a code fence after partSize bytes, else the first line
// break, else a character boundary, all within four parts' size.
func nextCut(text string, from int) int {
	limit := min(len(text), from+cutWindow)
	window := text[from:limit]
	fenced := false
	lineStart := 0
	for lineStart < len(window) {
		end := strings.IndexByte(window[lineStart:], '\n')
		if end < 0 {
			break
		}
		line := window[lineStart : lineStart+end]
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			fenced = !fenced
		}
		next := lineStart + end + 1
		if !fenced && next >= partSize && next < len(window) && window[next] == '\n' {
			return from + next + 1
		}
		lineStart = next
	}
	if i := strings.IndexByte(text[from+partSize:limit], '\n'); i >= 0 {
		return from + partSize + i + 1
	}
	c := from + partSize
	for c < limit && !utf8.RuneStart(text[c]) {
		c++
	}
	return c
}

// head is s cut to at most n bytes at a character boundary: what a
// one-line summary of a text looks at.
func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
