package agui

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/internal/jsonwords"
	"github.com/go-json-experiment/json/jsontext"
)

// Presence records whether an optional field was absent, null or set.
type Presence uint8

// The three ways an optional field can arrive.
const (
	Absent Presence = iota
	Null
	Set
)

// OptString is an optional string that remembers whether it was absent or
// null: AG-UI treats `subagentRunId: null` as an error, not as absent.
type OptString struct {
	Value string
	State Presence
}

// Some returns a set OptString.
func Some(s string) OptString { return OptString{Value: s, State: Set} }

// IsSet reports whether the field held a string.
func (o OptString) IsSet() bool { return o.State == Set }

// IsZero reports absence, so `omitzero` leaves an absent field out.
func (o OptString) IsZero() bool { return o.State == Absent }

// UnmarshalJSONFrom reads a string or null.
func (o *OptString) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	tok, err := d.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		*o = OptString{State: Null}
	case '"':
		*o = OptString{Value: tok.String(), State: Set}
	default:
		return fmt.Errorf("want a string, got %s", cmp.Or(jsonwords.Kind(tok.Kind()), "nothing"))
	}
	return nil
}

// MarshalJSONTo writes the string, or null when it was null.
func (o OptString) MarshalJSONTo(e *jsontext.Encoder) error {
	if o.State == Null {
		return e.WriteToken(jsontext.Null)
	}
	return e.WriteToken(jsontext.String(o.Value))
}

// Timestamp is an event time in milliseconds since the Unix epoch. AG-UI 1.0
// says integer; producers also send floats and strings, which are accepted.
type Timestamp struct {
	Millis float64
	Valid  bool
}

// IsZero reports an absent timestamp.
func (t Timestamp) IsZero() bool { return !t.Valid }

// Time converts the timestamp to a time.Time.
func (t Timestamp) Time() time.Time {
	if !t.Valid {
		return time.Time{}
	}
	ms := math.Floor(t.Millis)
	if ms > math.MaxInt64/1e6 || ms < math.MinInt64/1e6 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).Add(time.Duration((t.Millis - ms) * 1e6)).UTC()
}

// UnmarshalJSONFrom accepts a number, a numeric string or an RFC 3339 string; null means absent.
func (t *Timestamp) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	if d.PeekKind() == '0' {
		// Every event may carry one: read plain integers without ParseFloat.
		v, err := d.ReadValue()
		if err != nil {
			return err
		}
		if ms, ok := SmallInt(v); ok {
			*t = Timestamp{Millis: float64(ms), Valid: true}
			return nil
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("timestamp %s is out of range", v)
		}
		*t = Timestamp{Millis: f, Valid: true}
		return nil
	}
	tok, err := d.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		*t = Timestamp{}
	case '0':
		f, err := tok.Float()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("timestamp %s is out of range", tok.String())
		}
		*t = Timestamp{Millis: f, Valid: true}
	case '"':
		s := tok.String()
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			*t = Timestamp{Millis: f, Valid: true}
			return nil
		}
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("timestamp %q is neither milliseconds nor RFC 3339", s)
		}
		*t = Timestamp{Millis: float64(tm.UnixNano()) / 1e6, Valid: true}
	default:
		return fmt.Errorf("timestamp: want a number, got %s", cmp.Or(jsonwords.Kind(tok.Kind()), "nothing"))
	}
	return nil
}

// MarshalJSONTo writes the timestamp as a number of milliseconds.
func (t Timestamp) MarshalJSONTo(e *jsontext.Encoder) error {
	if t.Millis == math.Trunc(t.Millis) && math.Abs(t.Millis) < 1<<53 {
		return e.WriteToken(jsontext.Int(int64(t.Millis)))
	}
	return e.WriteToken(jsontext.Float(t.Millis))
}

// SmallInt reads v, the text of a JSON number, as Timestamp reads a plain
// integer: an optional minus and at most 15 digits (exact in a float64);
// ok is false for anything else, which Timestamp parses as a float. The
// index scan of sources reads timestamps with it, so both read the same
// numbers.
func SmallInt(v []byte) (int64, bool) {
	neg := len(v) > 0 && v[0] == '-'
	if neg {
		v = v[1:]
	}
	if len(v) == 0 || len(v) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Metadata is the open `metadata` object of events, messages and tool calls.
type Metadata map[string]jsontext.Value

// Merge returns existing with incoming's keys written over it (last write
// wins per key, no recursion), as the reference mergeMetadata does. It never
// modifies its arguments.
func Merge(existing, incoming Metadata) Metadata {
	if incoming == nil {
		return existing
	}
	out := make(Metadata, len(existing)+len(incoming))
	for k, v := range existing {
		out[k] = v
	}
	for k, v := range incoming {
		out[k] = v
	}
	return out
}

// String returns the value of key when it is a JSON string.
func (m Metadata) String(key string) (string, bool) {
	v, ok := m[key]
	if !ok || v.Kind() != '"' {
		return "", false
	}
	var s string
	if err := unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// isNull reports whether raw JSON is the literal null (or empty).
func isNull(v jsontext.Value) bool {
	return len(v) == 0 || bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}
