package acp

import (
	"github.com/go-json-experiment/json/jsontext"
)

// ID is a JSON-RPC request id exactly as it was sent: a number or a string
// (or null in an error response to an unreadable request).
type ID struct {
	raw string
}

// NewID returns the id whose JSON text is raw (a number, a string or null).
func NewID(raw []byte) ID { return ID{raw: string(raw)} }

// Raw returns the id's JSON text byte for byte as it was sent, e.g. `7` or `"req-7"`.
func (id ID) Raw() string { return id.raw }

// IsZero reports whether there is no id (a notification).
func (id ID) IsZero() bool { return id.raw == "" }

// String returns the id for people: a string id without its quotes, a
// number as written.
func (id ID) String() string {
	if len(id.raw) > 0 && id.raw[0] == '"' {
		var s string
		if unmarshal([]byte(id.raw), &s) == nil {
			return s
		}
	}
	return id.raw
}

// Key returns the id in a form that compares equal for equal ids however
// they were escaped: a string id as its canonical JSON string, a number as
// written (JSON-RPC peers echo ids back unchanged).
func (id ID) Key() string {
	if len(id.raw) > 0 && id.raw[0] == '"' {
		var s string
		if unmarshal([]byte(id.raw), &s) == nil {
			b, err := jsontext.AppendQuote(nil, s)
			if err == nil {
				return string(b)
			}
		}
	}
	return id.raw
}

// Direction says which way a message went, seen from the client.
type Direction string

// The directions. A message whose direction is not known (decoded with
// Decode rather than DecodeDir) has the zero Direction.
const (
	// Recv is a message from the agent to the client.
	Recv Direction = "recv"
	// Send is a message from the client to the agent.
	Send Direction = "send"
)

// Valid reports whether d is Recv or Send.
func (d Direction) Valid() bool { return d == Recv || d == Send }

// Opposite returns the direction answers to a message sent in d travel
// (Recv for Send and the other way round; zero for zero).
func (d Direction) Opposite() Direction {
	switch d {
	case Recv:
		return Send
	case Send:
		return Recv
	}
	return ""
}
