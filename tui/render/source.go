package render

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"
)

const (
	// maxHighlightBytes is the largest text SourceLines colours; larger
	// text is shown plain, as an editor does with huge files.
	maxHighlightBytes = 1 << 20
	// sourceTabStop matches diffTabStop: a source view shares the panel
	// with a gutter.
	sourceTabStop = 4
	// maxSourceLineNumber bounds firstLine so a hostile offset cannot
	// overflow the numbering or widen the gutter past the panel.
	maxSourceLineNumber = 1 << 30
	// maxCachedLexers bounds the lexer cache; past it the cache starts over.
	maxCachedLexers = 512
)

// SourceLines shows file text for a panel width×height: syntax colours chosen by
// the file name's extension (chroma lexers.Match on the base name; plain text when
// none matches or the text is over 1 MiB), a dim line-number gutter starting at
// firstLine (1 when unknown), tabs expanded to 4, lines cut to width with "…",
// at most height lines (the first ones, ending with a dim "… N more lines" when cut).
// Untrusted text is made Plain before highlighting. width/height < 1 gives nil.
//
// Colours are a fixed palette of the 16 ANSI colours, so they follow the
// terminal's own theme, dark or light. Every line that carries an escape ends
// with "\x1b[0m". Empty text gives nil; a final newline ends the last line
// rather than starting one. The gutter is left out when it would take more
// than half the width.
//
// Only the lines shown are sanitized and lexed: a file's first screen does
// not depend on what follows it (BenchmarkSourceLines). Lexing (chroma's regexp2 rules) is nearly all of what is left, so callers
// should still cache the result per step and size.
func SourceLines(path, text string, firstLine, width, height int) []string {
	if width < 1 || height < 1 || text == "" {
		return nil
	}
	total := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		total++
	}
	shown := total
	if total > height {
		shown = height - 1
	}
	firstLine = min(max(firstLine, 1), maxSourceLineNumber)

	var lexer chroma.Lexer
	if len(text) <= maxHighlightBytes {
		lexer = lexerFor(path)
	}
	// Cut before sanitizing: an escape sequence left open at the cut is
	// dropped to the end of the shown text, never let through.
	body := sanitize.Plain(text[:lineEnd(text, shown)])

	digits := len(strconv.Itoa(firstLine + total - 1))
	gutter := digits + 1
	if gutter > width/2 {
		gutter = 0
	}
	w := sourceWriter{
		out:    make([]string, 0, min(total, height)),
		number: firstLine,
		digits: digits,
		gutter: gutter,
		width:  width,
		limit:  shown,
	}
	w.start()
	if !w.highlight(lexer, body) {
		w.segment("", body)
	}
	w.flush()

	if shown < total {
		more := "… " + strconv.Itoa(total-shown) + " more lines"
		w.out = append(w.out, styles.Faint+ansi.Truncate(more, width, "…")+styles.Reset)
	}
	return w.out
}

// lineEnd returns the offset in text where its first n lines end, after
// the newline that ends line n: lexer rules such as Markdown's list items
// need a line's newline to match it.
func lineEnd(text string, n int) int {
	end := 0
	for range n {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return len(text)
		}
		end += i + 1
	}
	return end
}

// sourceWriter lays coloured segments out into gutter-numbered lines.
type sourceWriter struct {
	out    []string
	number int // line number of the line being written
	digits int
	gutter int // cells taken by the gutter, 0 when there is none
	width  int
	limit  int // lines to write at most

	b      strings.Builder
	col    int    // cells of text written on this line, after the gutter
	ascii  bool   // the line so far is ASCII, so col is exact
	colour string // SGR in force on this line, "" for none
}

// highlight writes body coloured by lexer's tokens, or reports false when
// there is no lexer or it fails, leaving the writer untouched.
func (w *sourceWriter) highlight(lexer chroma.Lexer, body string) bool {
	if lexer == nil {
		return false
	}
	tokens, err := lexer.Tokenise(nil, body)
	if err != nil {
		return false
	}
	for t := tokens(); t != chroma.EOF; t = tokens() {
		if len(w.out) >= w.limit {
			break
		}
		w.segment(tokenColour(t.Type), t.Value)
	}
	return true
}

// segment writes text in colour, starting a new line at each newline.
func (w *sourceWriter) segment(colour, text string) {
	for len(w.out) < w.limit {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			w.write(colour, text)
			return
		}
		w.write(colour, text[:i])
		w.flush()
		w.start()
		text = text[i+1:]
	}
}

// start begins a line with its gutter.
func (w *sourceWriter) start() {
	w.b.Reset()
	w.col, w.ascii, w.colour = 0, true, ""
	if w.gutter > 0 {
		w.b.WriteString(styles.Faint)
		writeNumber(&w.b, w.number, w.digits)
		w.b.WriteString(styles.Reset)
		w.b.WriteByte(' ')
	}
}

// write adds text without newlines to the line, expanding tabs and
// dropping what lies past the width.
func (w *sourceWriter) write(colour, text string) {
	avail := w.width - w.gutter
	for text != "" && w.col <= avail {
		piece, rest, tab := strings.Cut(text, "\t")
		text = rest
		if piece != "" {
			cells, ascii := pieceCells(piece)
			if ascii && w.col+cells > avail+1 {
				// Keep one cell past the width so the cut shows "…",
				// and no more: a minified line can be a megabyte.
				piece = piece[:avail+1-w.col]
				cells = len(piece)
			}
			w.paint(colour)
			w.b.WriteString(piece)
			w.col += cells
			w.ascii = w.ascii && ascii
		}
		if tab {
			n := sourceTabStop - w.col%sourceTabStop
			w.paint(colour)
			w.b.WriteString("    "[:n])
			w.col += n
		}
	}
}

// paint switches the line's colour to colour.
func (w *sourceWriter) paint(colour string) {
	if colour == w.colour {
		return
	}
	if w.colour != "" {
		w.b.WriteString(styles.Reset)
	}
	w.b.WriteString(colour)
	w.colour = colour
}

// flush ends the line being written and adds it to out.
func (w *sourceWriter) flush() {
	if len(w.out) >= w.limit {
		return
	}
	cells := -1
	if w.ascii {
		cells = w.gutter + w.col
	}
	line := Fit(w.b.String(), cells, w.width)
	if strings.IndexByte(line, 0x1b) >= 0 {
		line += styles.Reset
	}
	w.out = append(w.out, line)
	w.number++
}

// pieceCells returns the cells piece takes and whether it is ASCII, in
// which case the count is its length.
func pieceCells(piece string) (int, bool) {
	for i := 0; i < len(piece); i++ {
		if piece[i] >= 0x80 {
			return ansi.StringWidth(piece), false
		}
	}
	return len(piece), true
}

// tokenColour maps a chroma token type to the source palette, most
// specific type first; "" leaves the text uncoloured.
func tokenColour(t chroma.TokenType) string {
	switch t {
	case chroma.KeywordType, chroma.NameBuiltin, chroma.NameAttribute, chroma.NameEntity:
		return styles.Type
	case chroma.KeywordConstant, chroma.NameDecorator:
		return styles.Number
	case chroma.NameFunction, chroma.NameFunctionMagic, chroma.NameTag:
		return styles.Name
	case chroma.CommentPreproc, chroma.CommentPreprocFile:
		return styles.Keyword
	case chroma.GenericHeading, chroma.GenericSubheading:
		return styles.Heading
	case chroma.GenericEmph:
		return styles.Italic
	case chroma.GenericStrong:
		return styles.Bold
	case chroma.GenericDeleted:
		return styles.RedFg
	case chroma.GenericInserted:
		return styles.GreenFg
	}
	switch t.Category() {
	case chroma.Keyword:
		return styles.Keyword
	case chroma.Comment:
		return styles.Comment
	case chroma.Literal:
		switch t.SubCategory() {
		case chroma.LiteralString:
			return styles.String
		case chroma.LiteralNumber:
			return styles.Number
		}
	}
	return ""
}

// lexerCache holds the lexer for each file name key (see lexerKey); a
// lexers.Match call tries every glob of every lexer.
var lexerCache struct {
	sync.Mutex
	byKey map[string]chroma.Lexer
	// wholeNameGlobs are the lexer file-name patterns that are more than
	// "*.ext", such as "CMakeLists.txt" or "Dockerfile.*".
	wholeNameGlobs []string
}

// lexerFor returns the lexer for a file path, or nil for plain text.
func lexerFor(path string) chroma.Lexer {
	base := filepath.Base(path)
	if base == "." || base == string(filepath.Separator) {
		return nil
	}
	lexerCache.Lock()
	defer lexerCache.Unlock()
	if lexerCache.byKey == nil {
		lexerCache.byKey = map[string]chroma.Lexer{}
		lexerCache.wholeNameGlobs = wholeNameGlobs()
	}
	key := lexerKey(base, lexerCache.wholeNameGlobs)
	if l, ok := lexerCache.byKey[key]; ok {
		return l
	}
	l := lexers.Match(base)
	if l != nil && l.Config().Name == "plaintext" {
		l = nil
	}
	if len(lexerCache.byKey) >= maxCachedLexers {
		clear(lexerCache.byKey)
	}
	lexerCache.byKey[key] = l
	return l
}

// lexerKey is the part of a base name that decides its lexer: from the
// first dot on ("main.go" → ".go", "x.d.ts" → ".d.ts"), since a "*.ext"
// pattern matches the name exactly when it matches that part; the whole
// name when it has no dot or some lexer matches more than an extension.
func lexerKey(base string, wholeNameGlobs []string) string {
	dot := strings.IndexByte(base, '.')
	if dot < 0 {
		return base
	}
	for _, g := range wholeNameGlobs {
		// The trailing "*" also covers the backup suffixes (".bak",
		// "~", …) that Match tries; keying a few more names whole than
		// needed costs only a lookup.
		if ok, _ := filepath.Match(g+"*", base); ok {
			return base
		}
	}
	return base[dot:]
}

// wholeNameGlobs lists the registered lexers' file-name patterns that are
// not simply "*." followed by a literal extension.
func wholeNameGlobs() []string {
	var globs []string
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, g := range append(c.Filenames[:len(c.Filenames):len(c.Filenames)], c.AliasFilenames...) {
			if !strings.HasPrefix(g, "*.") || strings.ContainsAny(g[2:], `*?[\`) {
				globs = append(globs, g)
			}
		}
	}
	return globs
}
