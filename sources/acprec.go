package sources

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/acp"
	"github.com/agentwatch/agentwatch/model"
)

// ReadACPRecording reads a whole ACP recording (acp.FormatLine's JSON Lines:
// one JSON-RPC message a line with its time and direction) into records
// numbered from 1: Proto ACP, At the line's time, Raw the message, Event
// the message decoded in its direction. A line that is not a recording
// line, or whose message is not JSON, becomes a record whose Event is
// *model.Unreadable naming the line; blank lines are skipped. The error is
// only ever one from r, returned with the records read before it.
func ReadACPRecording(r io.Reader) ([]model.Record, error) {
	in := bufio.NewReaderSize(r, bufferSize)
	pos, err := skipPreamble(in)
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ACP recording: %w", err)
	}
	lines := lineReader{in: in, off: pos.off, num: pos.lines}
	var recs []model.Record
	for {
		ln, err := lines.next(DefaultMaxEventBytes)
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, fmt.Errorf("read ACP recording: %w", err)
		}
		text := bytes.TrimSpace(ln.text)
		if len(text) == 0 {
			continue
		}
		recs = append(recs, acpRecord(uint64(len(recs)+1), ln, text))
	}
}

// acpRecord turns one non-blank line of a recording into a record.
func acpRecord(seq uint64, ln line, text []byte) model.Record {
	rec := model.Record{Seq: seq, Proto: model.ProtoACP}
	where := "line " + strconv.Itoa(ln.num) + ": "
	if ln.over {
		rec.Event = tooBig(ln.start, DefaultMaxEventBytes, where)
		return rec
	}
	l, err := acp.ParseLine(text)
	if err != nil {
		reason := where + err.Error()
		if !ln.ended {
			reason = where + "the recording ends inside this line (it is still being written or was cut off)"
		}
		rec.Event = &model.Unreadable{Reason: reason, Offset: ln.start}
		return rec
	}
	rec.At = l.At
	ev := acp.DecodeDir(l.Msg, l.Dir)
	if bad, ok := ev.(*model.Unreadable); ok {
		rec.Event = &model.Unreadable{Reason: where + "the message is " + bad.Reason, Offset: ln.start}
		return rec
	}
	rec.Raw, rec.Event = bytes.Clone(l.Msg), ev
	return rec
}

// LooksLikeACPRecording reports whether first, the start of an input (its
// first line, or more), is an ACP recording: an object with a "dir" of
// "recv" or "send" and a "t", "msg" or "bad" member. It reads only as much
// of the first line as it needs, so a cut-off line is judged by its start.
func LooksLikeACPRecording(first []byte) bool {
	first = bytes.TrimPrefix(first, []byte("\ufeff"))
	first = bytes.TrimLeft(first, " \t\r\n")
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	d := jsontext.NewDecoder(bytes.NewReader(first), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	dir, other := false, false
	for !(dir && other) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			break
		}
		switch tok.String() {
		case "dir":
			v, err := d.ReadToken()
			if err != nil || v.Kind() != '"' || !acp.Direction(v.String()).Valid() {
				return false
			}
			dir = true
			continue
		case "t", "msg", "bad":
			other = true
		}
		if d.SkipValue() != nil {
			break
		}
	}
	return dir && other
}
