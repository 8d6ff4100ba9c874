package sources

import (
	"bufio"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// LooksLikeGeminiSession tells from a file's first line that it is a
// Gemini CLI session file: an object with the string members sessionId
// and projectHash, as the metadata record that starts one has (a Claude
// Code line names its session too, but no projectHash, and has a type).
// The line may be cut short: the members before the cut decide.
func LooksLikeGeminiSession(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	session, project := false, false
	for !(session && project) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "sessionId":
			session = d.PeekKind() == '"'
		case "projectHash":
			project = d.PeekKind() == '"'
		case "type":
			return false
		}
		if session && project {
			break // the value may be cut short: its kind decides
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

// geminiReader reads a Gemini CLI session file: its records, each turned
// into the AG-UI records protocol/gemini makes of it. A last line cut
// short is waited for, as a tail waits: it is no problem, just not there
// yet.
type geminiReader struct {
	lines lineReader
	limit int64
	tr    *gemini.Translator
	queue []model.Record
}

// newGeminiReader reads a session from in; path, when it is the file's,
// finds its subagents' files.
func newGeminiReader(in *bufio.Reader, at position, limit int64, path string) *geminiReader {
	return &geminiReader{lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit, tr: newGeminiSession(path, limit)}
}

func (g *geminiReader) next() (item, error) {
	for len(g.queue) == 0 {
		ln, err := g.lines.next(g.limit)
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, g.limit, lineAt(ln.num))}, nil
		}
		if !ln.ended {
			continue // torn: the rest is still being written
		}
		g.queue = g.tr.Line(ln.text)
	}
	rec := g.queue[0]
	g.queue[0] = model.Record{}
	g.queue = g.queue[1:]
	return item{raw: rec.Raw, made: &rec}, nil
}
