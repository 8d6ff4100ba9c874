package acp

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// An ACP recording is JSON Lines, one line per JSON-RPC
// message in the order it crossed the connection:
//
//	{"t":1760000000123,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update",…}}
//
// t is when the message arrived (or was sent), in ms since the Unix epoch;
// dir is "recv" for a message from the agent to the client and "send" for
// one from the client to the agent; msg is the message exactly as it went
// over the wire. A message that was not JSON is kept as the text it was,
// in a "bad" member instead of "msg", so a recording never loses a line.

// Line is one line of an ACP recording.
type Line struct {
	// At is when the message crossed the connection (zero when the line has no t).
	At  time.Time
	Dir Direction
	// Msg is the message's bytes as they were sent.
	Msg []byte
}

// ParseLine reads one line of a recording (without its line end). It fails
// on a line that is not such an object: not JSON, no valid "dir", neither
// "msg" nor "bad", or a "t" that is not a number.
func ParseLine(b []byte) (Line, error) {
	var w struct {
		T   jsontext.Value `json:"t"`
		Dir jsontext.Value `json:"dir"`
		Msg jsontext.Value `json:"msg"`
		Bad *string        `json:"bad"`
	}
	if err := unmarshal(b, &w); err != nil {
		return Line{}, errors.New("not a recording line: " + cleanErr(err))
	}
	var l Line
	var dir string
	if w.Dir.Kind() != '"' || unmarshal(w.Dir, &dir) != nil || !Direction(dir).Valid() {
		return Line{}, errors.New(`not a recording line: "dir" must be "recv" or "send"`)
	}
	l.Dir = Direction(dir)
	if len(w.T) > 0 && w.T.Kind() != 'n' {
		var ms float64
		if w.T.Kind() != '0' || unmarshal(w.T, &ms) != nil {
			return Line{}, errors.New(`not a recording line: "t" is not a number`)
		}
		l.At = millis(ms)
	}
	switch {
	case len(w.Msg) > 0:
		l.Msg = w.Msg
	case w.Bad != nil:
		l.Msg = []byte(*w.Bad)
	default:
		return Line{}, errors.New(`not a recording line: no "msg"`)
	}
	return l, nil
}

// millis turns ms since the epoch into a UTC time (zero when out of range).
func millis(ms float64) time.Time {
	whole := math.Floor(ms)
	if math.IsNaN(ms) || whole > math.MaxInt64/1e6 || whole < math.MinInt64/1e6 {
		return time.Time{}
	}
	return time.UnixMilli(int64(whole)).Add(time.Duration((ms - whole) * 1e6)).UTC()
}

// FormatLine returns the recording line for message msg that crossed the
// connection at t in direction dir (Recv or Send), ending in "\n". A msg
// that is one JSON value is written as it is (compacted only when it spans
// lines); anything else is kept as text in "bad". t is written in whole
// milliseconds.
func FormatLine(t time.Time, dir Direction, msg []byte) []byte {
	out := make([]byte, 0, len(msg)+48)
	out = append(out, `{"t":`...)
	out = strconv.AppendInt(out, t.UnixMilli(), 10)
	out = append(out, `,"dir":`...)
	out, _ = jsontext.AppendQuote(out, string(dir))
	v := jsontext.Value(msg)
	if v.IsValid(lenient...) {
		if hasLineEnd(msg) {
			v = v.Clone()
			_ = v.Compact(lenient...)
		}
		out = append(out, `,"msg":`...)
		out = append(out, v...)
	} else {
		out = append(out, `,"bad":`...)
		// AppendQuote replaces invalid UTF-8 and reports it; the text is kept either way.
		out, _ = jsontext.AppendQuote(out, msg)
	}
	return append(out, "}\n"...)
}

// lenient accepts in msg what a peer may send and Decode reads: a member
// given twice, invalid UTF-8. The message is recorded byte for byte.
var lenient = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

func hasLineEnd(b []byte) bool {
	for _, c := range b {
		if c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}
