package sources

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// parse turns the complete values in buf into records.
//
// atEnd says the file is read to its end for now. Before that, an array
// element left unfinished by the last parse is tried again only once it has
// doubled, so an element bigger than a read step is not decoded from its
// start at every step.
func (t *tailer) parse(atEnd bool) {
	if t.format == tailUnknown && !t.detect() {
		return
	}
	switch t.format {
	case tailArray:
		t.parseArray(atEnd)
	default:
		t.parseLines()
	}
}

// detect tells the format from the first bytes, once there are enough.
func (t *tailer) detect() bool {
	b := t.buf
	if t.base == 0 && len(b) < 3 && bytes.HasPrefix([]byte{0xEF, 0xBB, 0xBF}, b) {
		return false
	}
	if t.base == 0 && bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		t.consume(3)
		b = t.buf
	}
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	if i == len(b) {
		return false
	}
	if b[i] == '[' {
		t.format = tailArray
		return true
	}
	// SSE or JSON Lines: look at the first line once it is complete.
	nl := bytes.IndexByte(b[i:], '\n')
	if nl < 0 {
		return false
	}
	t.format = tailLines
	for _, f := range sseFields {
		if bytes.HasPrefix(b[i:], f) {
			t.format = tailSSE
		}
	}
	if LooksLikeACPRecording(b[i : i+nl]) {
		t.format = tailACP
	} else if tr := translatorFor(b[i:i+nl], t.path, t.opts.MaxEventBytes); tr != nil {
		t.format, t.translator = tailTranslated, tr
	}
	return true
}

// parseLines handles JSON Lines and SSE: only complete lines are used.
func (t *tailer) parseLines() {
	i := 0
	defer func() { t.consume(i) }()
	for {
		nl := bytes.IndexByte(t.buf[i:], '\n')
		if nl < 0 {
			if t.skip { // still inside an oversized line
				i = len(t.buf)
				return
			}
			if int64(len(t.buf)-i) > t.opts.MaxEventBytes+16 {
				t.bad("line longer than the event size limit", t.base+int64(i))
				t.end = 0 // known once the line's end is read
				t.skip = true
				i = len(t.buf)
			}
			return
		}
		ln := bytes.TrimRight(t.buf[i:i+nl], "\r")
		at := t.base + int64(i)
		seq, skipped := t.seq, t.skip
		if t.skip {
			t.skip = false // the rest of an oversized line
		} else if t.format == tailSSE {
			t.sseLine(ln, at)
		} else if len(bytes.TrimSpace(ln)) > 0 {
			t.value(bytes.TrimSpace(ln), at)
		}
		i += nl + 1
		if t.seq != seq || skipped {
			// A record ends with its line (an SSE record with its frame's
			// blank line); an oversized line's, made before its end was
			// read, with the rest of the line now skipped.
			t.end = t.base + int64(i)
		}
	}
}

// sseLine handles one SSE line: data lines gather, a blank line ends the frame.
func (t *tailer) sseLine(ln []byte, at int64) {
	if len(ln) == 0 {
		t.sseFlush(at)
		return
	}
	if !bytes.HasPrefix(ln, dataField) {
		return
	}
	d := ln[len(dataField):]
	if len(d) > 0 && d[0] == ' ' {
		d = d[1:]
	}
	if t.sseN > 0 {
		t.sse = piecewise.Append(t.sse, []byte{'\n'})
	}
	t.sse = piecewise.Append(t.sse, d)
	t.sseN++
}

func (t *tailer) sseFlush(at int64) {
	if t.sseN == 0 {
		return
	}
	if int64(len(t.sse)) > t.opts.MaxEventBytes {
		t.bad("event larger than the event size limit", at)
	} else {
		t.value(t.sse, at)
	}
	t.sse, t.sseN = t.sse[:0], 0
}

// parseArray consumes the complete elements of a JSON array being written.
func (t *tailer) parseArray(atEnd bool) {
	i := 0
	defer func() { t.consume(i) }()
	seq := t.seq
	for !t.arrEnd {
		for i < len(t.buf) {
			c := t.buf[i]
			if c == ' ' || c == '\t' || c == '\r' || c == '\n' || (c == ',' && t.inArr) {
				i++
				continue
			}
			break
		}
		if i == len(t.buf) {
			return
		}
		at := t.base + int64(i)
		if !t.inArr {
			if t.buf[i] != '[' {
				t.bad("the JSON array does not start with '['", at)
				t.arrEnd = true
				break
			}
			t.inArr = true
			i++
			continue
		}
		if t.buf[i] == ']' {
			t.arrEnd = true
			break
		}
		if !atEnd && t.unfinished > 0 && len(t.buf)-i < 2*t.unfinished {
			return // not worth decoding again yet
		}
		dec := jsontext.NewDecoder(bytes.NewReader(t.buf[i:]), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		v, err := dec.ReadValue()
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				if int64(len(t.buf)-i) > t.opts.MaxEventBytes+16 {
					t.bad("event larger than the event size limit", at)
					t.arrEnd = true
					break
				}
				t.unfinished = len(t.buf) - i
				return // wait for the rest
			}
			t.bad("the JSON array is broken here: "+err.Error(), at)
			t.arrEnd = true
			break
		}
		t.unfinished = 0
		t.value(bytes.TrimSpace(v), at)
		i += int(dec.InputOffset())
		t.end, seq = t.base+int64(i), t.seq
	}
	i = len(t.buf) // after the end, or once broken, nothing more is read
	if t.seq != seq {
		// The record that says the array broke has no End: reading does
		// not go on after it, so a later run must not take the file up
		// there (it would read on what this tail leaves unread).
		t.end = 0
	}
}

// flushRest handles what is left when a file is finished: a last line
// without its newline is decoded, an SSE frame without its blank line counts,
// anything else left is reported.
func (t *tailer) flushRest() {
	rest := bytes.TrimSpace(t.buf)
	seq := t.seq
	switch t.format {
	case tailArray:
		if len(rest) > 0 && !t.arrEnd {
			t.bad("the JSON array ends in the middle of an event", t.base)
		}
	case tailSSE:
		if len(rest) > 0 {
			t.sseLine(bytes.TrimRight(t.buf, "\r"), t.base)
		}
		t.sseFlush(t.base)
	default:
		if len(rest) > 0 && !t.skip {
			t.value(rest, t.base)
		}
	}
	if t.seq != seq {
		t.end = t.base + int64(len(t.buf))
	}
	t.buf = t.buf[:0]
}

// value decodes one complete JSON value into the next record.
func (t *tailer) value(raw []byte, at int64) {
	if int64(len(raw)) > t.opts.MaxEventBytes {
		t.bad("event larger than the event size limit", at)
		return
	}
	if t.format == tailTranslated {
		t.translatedLine(raw, at)
		return
	}
	raw = piecewise.Clone(raw)
	t.seq++
	if t.format == tailACP {
		t.pending = append(t.pending, acpRecord(t.seq, item{raw: raw, at: span{at: at}, acp: true}))
		return
	}
	rec := model.Record{Seq: t.seq, Proto: model.ProtoAGUI, Raw: raw, Event: agui.Decode(raw)}
	if ts, ok := agui.Time(rec.Event); ok {
		rec.At = ts
	} else {
		rec.At = t.arrived(at)
	}
	t.pending = append(t.pending, rec)
}

// bad adds an Unreadable record.
func (t *tailer) bad(reason string, at int64) {
	t.seq++
	proto := model.ProtoAGUI
	if t.format == tailACP {
		proto = model.ProtoACP
	}
	t.pending = append(t.pending, model.Record{Seq: t.seq, Proto: proto, At: t.arrived(at),
		Event: &model.Unreadable{Reason: reason, Offset: at}})
}

// arrived is the time of a record without one of its own that starts at
// offset at: now, unless the file held it when the tail found it (held).
func (t *tailer) arrived(at int64) time.Time {
	if at < t.held {
		return time.Time{}
	}
	return time.Now()
}
