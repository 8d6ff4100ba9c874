package otlp

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/agentwatch/agentwatch/internal/words"
)

// Reason is why a Receiver turned a request away; each is counted.
type Reason int

// The reasons a request is turned away.
const (
	// Unauthorized: without the token (HTTP 401, gRPC UNAUTHENTICATED).
	Unauthorized Reason = iota
	// Busy: as many requests as the receiver holds at once were in
	// flight (HTTP 429, gRPC RESOURCE_EXHAUSTED, both asking for a retry).
	Busy
	// TooLarge: a body over the limit, before or after gzip (HTTP 413,
	// gRPC RESOURCE_EXHAUSTED).
	TooLarge
	// TooMany: more spans or log records in one request, or attributes on
	// one of them, than the receiver takes (HTTP 413, gRPC
	// RESOURCE_EXHAUSTED).
	TooMany
	// TooDeep: JSON nested deeper than the receiver reads (HTTP 400).
	TooDeep
	// Malformed: not an OTLP request it reads: another path, method,
	// content type or encoding, or a payload that does not decode (HTTP
	// 400, 404, 405, 415; gRPC INVALID_ARGUMENT).
	Malformed
	// NotKept: taken, but not kept: the screen fell behind, the receiver
	// was closing, or the recording could not be written (HTTP 503, gRPC
	// UNAVAILABLE).
	NotKept
	numReasons
)

// String says the reason in a few words, for the counts.
func (r Reason) String() string {
	switch r {
	case Unauthorized:
		return "without the token"
	case Busy:
		return "too many at once"
	case TooLarge:
		return "too large"
	case TooMany:
		return "too many spans, records or attributes"
	case TooDeep:
		return "nested too deeply"
	case Malformed:
		return "not OTLP"
	case NotKept:
		return "not kept"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Counts are what a Receiver did with the requests it was sent.
type Counts struct {
	// Taken are the requests handed to the reader and kept; Resent those
	// that came again once taken (an exporter's retry), answered as
	// taken and not handed on.
	Taken, Resent int64
	// LeftOut are the spans and log records of requests taken that the
	// reader left out (answered as a partial success that rejects them).
	LeftOut int64
	// Refused counts the requests turned away, by reason.
	Refused [numReasons]int64
	// Waiting is how many requests wait for a place in flight now.
	Waiting int64
}

// String says the counts in words: "12 requests · 3 refused: 2 too
// large, 1 without the token".
func (c Counts) String() string {
	s := words.Count(int(c.Taken), "request", "requests")
	if c.Resent > 0 {
		s += " · " + words.Thousands(int(c.Resent)) + " resent"
	}
	if c.LeftOut > 0 {
		s += " · " + words.Count(int(c.LeftOut), "span or record", "spans or records") + " of new conversations left out"
	}
	var parts []string
	var refused int64
	for r, n := range c.Refused {
		if n > 0 {
			refused += n
			parts = append(parts, words.Thousands(int(n))+" "+Reason(r).String())
		}
	}
	if refused > 0 {
		s += " · " + words.Thousands(int(refused)) + " refused: " + strings.Join(parts, ", ")
	}
	return s
}

// counters are a Receiver's Counts as its handlers add to them, at once.
type counters struct {
	taken, resent, leftOut, waiting atomic.Int64
	refused                         [numReasons]atomic.Int64
}

func (c *counters) snapshot() Counts {
	out := Counts{Taken: c.taken.Load(), Resent: c.resent.Load(), LeftOut: c.leftOut.Load(), Waiting: c.waiting.Load()}
	for i := range c.refused {
		out.Refused[i] = c.refused[i].Load()
	}
	return out
}
