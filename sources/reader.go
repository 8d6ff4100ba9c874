package sources

import (
	"bufio"
	"bytes"
	"io"
	"os"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// DefaultMaxEventBytes is the size limit a new Reader puts on one event.
const DefaultMaxEventBytes int64 = 64 << 20

// bufferSize is the read buffer: lines up to this size are parsed in place.
const bufferSize = 64 << 10

// Reader reads AG-UI events from a log, one record per Next call (or an
// ACP recording's messages, FormatACPRecording). It reads
// as it goes and holds one event (at most about MaxEventBytes) plus a read
// buffer in memory, so it works on pipes and huge logs as well as on small
// saved files.
type Reader struct {
	// MaxEventBytes is the largest event the Reader accepts; a larger one
	// becomes an Unreadable record and is skipped. Set it before the first
	// Next; it starts as DefaultMaxEventBytes.
	MaxEventBytes int64

	slack  int64 // see defaultSlack; tests lower it to reach the oversize path
	in     *bufio.Reader
	format Format
	events eventSource // nil until the first Next has detected the format
	seq    uint64
	err    error // sticky: io.EOF or the I/O error that ended reading
	// cutFrame, when set, ends an SSE input that stops inside a frame (see
	// Connect): the frame is not an event, and the stream did not end well.
	cutFrame error
	// path is the file read, when the input is one: a Claude Code session
	// reads its subagents' files beside it.
	path string
}

// eventSource is one format's reader: it returns the next JSON value as an
// owned copy, or a problem in its place, or io.EOF / an I/O error.
type eventSource interface {
	next() (item, error)
}

// item is what a format reader found: raw bytes, or why there are none
// (bad may come with raw, for a valid value that is not an object).
type item struct {
	raw []byte
	// off is the input offset of raw's first byte when placed is set: raw
	// is then a copy of one span of the input, which an Indexer reads back
	// instead of keeping. SSE data joined from several lines is not placed.
	off    int64
	placed bool
	bad    *model.Unreadable
	// lazy says raw was not validated when read (decoding parses it
	// anyway); when decoding finds it is not JSON, checkedValue(raw, at)
	// says why in words naming its line or frame.
	lazy bool
	at   span
	// acp says raw is a line of an ACP recording: its record is an ACP
	// one, made from the message the line holds (acpRecord).
	acp bool
	// made is the record a translation made (a line of a Claude Code
	// session, of a Codex rollout): decoded already, naming its thread;
	// it only needs its number.
	made *model.Record
}

// buffered reports whether a whole next line (for JSON Lines and SSE) is
// already read ahead, so reading the next event will not wait on the
// source; a format that reads through a decoder of its own says so itself.
func (r *Reader) buffered() bool {
	if b, ok := r.events.(interface{ buffered() bool }); ok {
		return b.buffered()
	}
	n := r.in.Buffered()
	if n == 0 {
		return false
	}
	ahead, _ := r.in.Peek(n)
	return bytes.IndexByte(ahead, '\n') >= 0
}

// NewReader returns a Reader that detects the log's format from its first
// bytes: '[' a JSON array, '{' an {"events":[…]} object or JSON Lines, an
// SSE field such as "data:" SSE text, anything else JSON Lines.
func NewReader(r io.Reader) *Reader {
	return NewReaderFormat(r, FormatAuto)
}

// NewReaderFormat returns a Reader for a log known to be in format f
// (FormatAuto detects it, as NewReader does).
func NewReaderFormat(r io.Reader, f Format) *Reader {
	rd := &Reader{
		MaxEventBytes: DefaultMaxEventBytes,
		slack:         defaultSlack,
		in:            bufio.NewReaderSize(r, bufferSize),
		format:        f,
	}
	if file, ok := r.(*os.File); ok && file != os.Stdin {
		rd.path = file.Name()
	}
	return rd
}

// Format tells which format the Reader reads: the forced one, or the one
// detected by the first Next (FormatAuto while nothing could be detected,
// as for empty input).
func (r *Reader) Format() Format { return r.format }

// Next returns the next record, numbered from 1, and io.EOF after the last.
// Content problems come back as records whose Event is *model.Unreadable;
// an error is only ever io.EOF or an error from the underlying reader, after
// which Next keeps returning it.
func (r *Reader) Next() (model.Record, error) {
	it, seq, err := r.read()
	if err != nil {
		return model.Record{}, err
	}
	return it.record(seq), nil
}

// read returns the next raw item and its Seq, without decoding it.
func (r *Reader) read() (item, uint64, error) {
	if r.err != nil {
		return item{}, 0, r.err
	}
	if r.events == nil {
		if err := r.start(); err != nil {
			r.err = err
			return item{}, 0, err
		}
	}
	it, err := r.events.next()
	if err != nil {
		r.err = err
		return item{}, 0, err
	}
	r.seq++
	return it, r.seq, nil
}

// record decodes an item into the record numbered seq.
func (it item) record(seq uint64) model.Record {
	if it.acp {
		return acpRecord(seq, it)
	}
	if it.made != nil {
		rec := *it.made
		rec.Seq = seq
		return rec
	}
	rec := model.Record{Seq: seq, Proto: model.ProtoAGUI, Raw: it.raw}
	if it.bad != nil {
		rec.Event = it.bad
		return rec
	}
	rec.Event = agui.Decode(it.raw)
	if _, bad := rec.Event.(*model.Unreadable); bad && it.lazy {
		if why := checkedValue(it.raw, it.at).bad; why != nil {
			rec.Event, rec.Raw = why, nil
			return rec
		}
	}
	if t, ok := agui.Time(rec.Event); ok {
		rec.At = t
	}
	return rec
}

// start detects the format when asked to and sets up its reader.
func (r *Reader) start() error {
	limit := r.MaxEventBytes
	if limit <= 0 {
		limit = DefaultMaxEventBytes
	}
	if r.format == FormatAuto {
		r.in = unzstd(r.in)
	}
	pos, err := skipPreamble(r.in)
	if err != nil && err != io.EOF {
		return err
	}
	if r.format == FormatAuto {
		if err == io.EOF {
			return io.EOF
		}
		if r.format, err = detect(r.in); err != nil {
			return err
		}
	}
	switch r.format {
	case FormatJSONArray:
		r.events = newArrayReader(r.in, pos, limit, r.slack, false)
	case FormatEventsObject:
		r.events = newArrayReader(r.in, pos, limit, r.slack, true)
	case FormatSSE:
		sse := newSSEReader(r.in, pos, limit)
		sse.cut = r.cutFrame
		r.events = sse
	case FormatClaude:
		r.events = newSessionReader(r.in, pos, limit, newClaudeSession(r.path, limit), tornWaits)
	case FormatACPRecording:
		jl := newJSONLReader(r.in, pos, limit)
		jl.acp = true
		r.events = jl
	case FormatCodexRollout:
		r.events = newSessionReader(r.in, pos, limit, newCodexSession(r.path, limit), tornIsAProblem)
	case FormatCopilot:
		r.events = newSessionReader(r.in, pos, limit, copilot.New(), tornReadIfWhole)
	case FormatGemini:
		r.events = newSessionReader(r.in, pos, limit, newGeminiSession(r.path, limit), tornWaits)
	default:
		r.events = newJSONLReader(r.in, pos, limit)
	}
	return nil
}

// ReadAll reads every record of a log in any format NewReader detects. On
// an I/O error it returns the records read so far with the error.
func ReadAll(r io.Reader) ([]model.Record, error) {
	rd := NewReader(r)
	var recs []model.Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}
