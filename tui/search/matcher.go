package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Matcher finds a query in text. A query without upper-case letters
// matches whatever the case (as smartcase in an editor); one with them
// matches exactly.
type Matcher struct {
	query string
	fold  bool
	// first and firstUpper are the query's first byte in both cases, for
	// the fast scan of an ASCII query.
	first, firstUpper byte
	ascii             bool
}

// NewMatcher returns a matcher of query; an empty query matches nothing.
func NewMatcher(query string) Matcher {
	m := Matcher{query: query}
	if query == "" {
		return m
	}
	m.fold = strings.ToLower(query) == query
	m.ascii = true
	for i := 0; i < len(query); i++ {
		if query[i] >= utf8.RuneSelf {
			m.ascii = false
		}
	}
	m.first, m.firstUpper = query[0], query[0]
	if m.fold && m.first >= 'a' && m.first <= 'z' {
		m.firstUpper = m.first - 'a' + 'A'
	}
	return m
}

// Query is the text the matcher looks for.
func (m Matcher) Query() string { return m.query }

// Narrows reports whether every text m matches is one prev matches: m's
// query extends prev's, and m minds case only if prev does or m's query
// has capitals prev's lacks. A search for m then looks only at prev's
// matches.
func (m Matcher) Narrows(prev Matcher) bool {
	return !prev.Empty() && len(m.query) > len(prev.query) && strings.HasPrefix(m.query, prev.query) &&
		(prev.fold || !m.fold)
}

// Empty reports whether the matcher has no query.
func (m Matcher) Empty() bool { return m.query == "" }

// In reports whether text holds the query.
func (m Matcher) In(text string) bool { return m.Index(text) >= 0 }

// Index is the byte offset of the first match in text, or -1.
//
// A case-insensitive ASCII query is found without lower-casing the text:
// IndexByte finds each candidate for the first byte in either case, and
// only candidates are compared, so a thread's megabytes of output are
// scanned at memory speed on every keystroke.
func (m Matcher) Index(text string) int {
	q := m.query
	switch {
	case q == "" || len(text) < len(q):
		return -1
	case !m.fold:
		return strings.Index(text, q)
	case !m.ascii:
		return foldIndexUnicode(text, q)
	}
	// na and nb are the next candidates for each case of the first byte
	// at or after i (-1: none left), each searched again only once passed,
	// so a byte common in one case does not rescan for the other.
	last := len(text) - len(q)
	na, nb := nextByte(text, 0, last, m.first), nextByte(text, 0, last, m.firstUpper)
	for {
		i := na
		if i < 0 || (nb >= 0 && nb < i) {
			i = nb
		}
		if i < 0 {
			return -1
		}
		if equalFoldASCII(text[i:i+len(q)], q) {
			return i
		}
		if na == i {
			na = nextByte(text, i+1, last, m.first)
		}
		if nb == i {
			nb = nextByte(text, i+1, last, m.firstUpper)
		}
	}
}

// nextByte is the index of c in text at from or after, up to last, or -1.
func nextByte(text string, from, last int, c byte) int {
	if from > last {
		return -1
	}
	j := strings.IndexByte(text[from:last+1], c)
	if j < 0 {
		return -1
	}
	return from + j
}

// All returns the byte spans [start, end) of every match in text, in
// order and without overlap.
func (m Matcher) All(text string) [][2]int {
	var out [][2]int
	for off := 0; ; {
		i := m.Index(text[off:])
		if i < 0 {
			return out
		}
		start := off + i
		end := start + len(m.query)
		if !m.ascii && m.fold {
			end = start + foldMatchLen(text[start:], m.query)
		}
		out = append(out, [2]int{start, end})
		off = end
		if off >= len(text) {
			return out
		}
	}
}

// equalFoldASCII reports whether s equals the lower-case ASCII q but for
// case.
func equalFoldASCII(s, q string) bool {
	for i := 0; i < len(q); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != q[i] {
			return false
		}
	}
	return true
}

// foldIndexUnicode is the first match of the lower-case q in s whatever
// the case, for queries that are not ASCII.
func foldIndexUnicode(s, q string) int {
	first, _ := utf8.DecodeRuneInString(q)
	for i, r := range s {
		if unicode.ToLower(r) != first {
			continue
		}
		if foldMatchLen(s[i:], q) > 0 {
			return i
		}
	}
	return -1
}

// foldMatchLen is how many bytes of s match q whatever the case (0 when
// s does not start with q).
func foldMatchLen(s, q string) int {
	n := 0
	for _, qr := range q {
		r, size := utf8.DecodeRuneInString(s[n:])
		if size == 0 || unicode.ToLower(r) != qr {
			return 0
		}
		n += size
	}
	return n
}
