package sources

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// ReadACPRecording reads a whole ACP recording (acp.FormatLine's JSON Lines:
// one JSON-RPC message a line with its time and direction) into records
// numbered from 1: Proto ACP, At the line's time, Raw the message, Event
// the message decoded in its direction. A line that is not a recording
// line, or whose message is not JSON, becomes a record whose Event is
// *model.Unreadable naming the line; blank lines are skipped. The error is
// only ever one from r, returned with the records read before it. A Reader
// gives the same records, one at a time, for input that looks like a
// recording (FormatACPRecording).
func ReadACPRecording(r io.Reader) ([]model.Record, error) {
	rd := NewReaderFormat(r, FormatACPRecording)
	var recs []model.Record
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, fmt.Errorf("read ACP recording: %w", err)
		}
		recs = append(recs, rec)
	}
}

// acpRecord turns one item of a recording (a line, or why there is none)
// into the record numbered seq.
func acpRecord(seq uint64, it item) model.Record {
	rec := model.Record{Seq: seq, Proto: model.ProtoACP}
	if it.bad != nil {
		rec.Event = it.bad
		return rec
	}
	where := "" // a tail does not count lines
	if it.at.num > 0 {
		where = lineAt(it.at.num)
	}
	l, err := acp.ParseLine(it.raw)
	if err != nil {
		reason := where + err.Error()
		if it.at.unread > 0 {
			reason = where + "the recording ends inside this line (it is still being written or was cut off)"
		}
		rec.Event = &model.Unreadable{Reason: reason, Offset: it.at.at}
		return rec
	}
	rec.At = l.At
	ev := acp.DecodeDir(l.Msg, l.Dir)
	if bad, ok := ev.(*model.Unreadable); ok {
		rec.Event = &model.Unreadable{Reason: where + "the message is " + bad.Reason, Offset: it.at.at}
		return rec
	}
	rec.Raw, rec.Event = l.Msg, ev
	return rec
}

// LooksLikeACPRecording reports whether first, the start of an input (its
// first line, or more), is an ACP recording: an object with a "dir" of
// "recv" or "send" and a "t", "msg" or "bad" member. It reads only as much
// of the first line as it needs, so a cut-off line is judged by its start.
func LooksLikeACPRecording(first []byte) bool {
	d := firstObject(first)
	if d == nil {
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

// firstObject is a decoder of the first line of an input (its start, or
// more: a byte order mark and leading space skipped), past the "{" that
// opens it, for a look at its members one by one; nil when the line does
// not begin an object. A line cut short reads as far as it goes.
func firstObject(first []byte) *jsontext.Decoder {
	first = bytes.TrimPrefix(first, []byte("\ufeff"))
	first = bytes.TrimLeft(first, " \t\r\n")
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	d := jsontext.NewDecoder(bytes.NewReader(first), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	return d
}
