package sources

import (
	"bufio"
	"bytes"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/agentwatch/agentwatch/model"
)

// LooksLikeCodexRollout tells from a file's first line that it is a Codex
// rollout: an object whose "type" is "session_meta" beside a "timestamp"
// (a rollout's every line is {"timestamp", "type", "payload"}, and its
// first describes the session). The line may be cut short: the members
// before the cut decide.
func LooksLikeCodexRollout(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	stamped, meta := false, false
	for !(stamped && meta) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "timestamp":
			stamped = d.PeekKind() == '"'
		case "type":
			v, err := d.ReadToken()
			if err != nil || v.Kind() != '"' || v.String() != "session_meta" {
				return false
			}
			meta = true
			continue
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

// codexReader reads a Codex rollout: each line is translated into AG-UI
// records (protocol/codex), handed out one at a time, with the lines of
// the session's subagents among them when the rollout is a file whose
// folder holds theirs (codex_subagents.go). The records are made by the
// translation, not read from the input, so none is placed.
type codexReader struct {
	in    *bufio.Reader
	lines lineReader
	limit int64
	tr    lineTranslator
	queue []model.Record
	idled bool // the subagents' lines left were read, at the end
}

// newCodexReader reads a rollout from in; path, when it is the file's,
// finds its subagents' rollouts.
func newCodexReader(in *bufio.Reader, at position, limit int64, path string) *codexReader {
	return &codexReader{in: in, lines: lineReader{in: in, off: at.off, num: at.lines}, limit: limit, tr: newCodexSession(path, limit)}
}

func (c *codexReader) next() (item, error) {
	for len(c.queue) == 0 {
		ln, err := c.lines.next(c.limit)
		if err == io.EOF && !c.idled {
			c.idled = true
			if id, ok := c.tr.(idler); ok {
				c.queue = id.Idle()
			}
			continue
		}
		if err != nil {
			return item{}, err
		}
		if ln.over {
			return item{bad: tooBig(ln.start, c.limit, lineAt(ln.num))}, nil
		}
		text := bytes.TrimSpace(ln.text)
		if len(text) == 0 {
			continue
		}
		if !ln.ended && !validJSON(text) {
			return item{bad: truncated(ln.start, int64(len(text)), lineAt(ln.num))}, nil
		}
		c.queue = c.tr.Line(text)
	}
	rec := c.queue[0]
	c.queue[0] = model.Record{}
	c.queue = c.queue[1:]
	return item{raw: rec.Raw, made: &rec}, nil
}

// buffered reports whether the next record is at hand: translated already,
// or its line read ahead.
func (c *codexReader) buffered() bool {
	if len(c.queue) > 0 {
		return true
	}
	n := c.in.Buffered()
	if n == 0 {
		return false
	}
	ahead, _ := c.in.Peek(n)
	return bytes.IndexByte(ahead, '\n') >= 0
}

// zstdMagic starts every zstd frame. Codex compresses a rollout idle for
// days into rollout-*.jsonl.zst, and a reader that skipped those would
// skip the older sessions.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// unzstd returns a reader of the decompressed input when in starts with a
// zstd frame, and in itself otherwise. A frame that does not decode ends
// the input with the decoder's error.
func unzstd(in *bufio.Reader) *bufio.Reader {
	if head, _ := in.Peek(len(zstdMagic)); !bytes.Equal(head, zstdMagic) {
		return in
	}
	d, err := zstd.NewReader(in, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return in
	}
	return bufio.NewReaderSize(d.IOReadCloser(), bufferSize)
}
