package fold

import (
	"strings"

	"github.com/agentwatch/agentwatch/internal/piecewise"
)

// textStreams grows the texts that arrive a delta at a time: message and
// reasoning content, tool-call arguments, item text. Appending to a Go
// string copies it whole, so a text of n deltas built with += costs n²:
// a million argument tokens of one call took minutes to fold.
//
// Here a text grows in a strings.Builder, and the field that holds it is
// set to the builder's String after every delta. That copies nothing (the
// string shares the builder's bytes, which appending never changes), so
// the field is always current and a delta costs its own length.
//
// A builder continues a field only while the field still holds what the
// builder wrote; a field set by anything else (a snapshot, a shed step, a
// copy restored from a checkpoint) starts a new builder from its text. The
// builders are therefore a cache: dropping them changes no result, only
// what the next delta costs. They are private to one fold and a copy of
// the fold starts without them, as the ACP terminal builders do
// (acpState.out).
type textStreams[K comparable] struct {
	open map[K]*strings.Builder
}

// maxOpenStreams bounds the builders kept. Streams that end say so (end);
// the bound keeps the ones that never end from holding memory forever.
const maxOpenStreams = 64

// append returns cur followed by delta, where cur is what the field of
// stream k holds now.
func (s *textStreams[K]) append(k K, cur, delta string) string {
	b := s.open[k]
	// Comparing a string with itself is one pointer comparison, so this
	// check is free while the field holds the builder's String.
	if b == nil || b.String() != cur {
		if s.open == nil {
			s.open = map[K]*strings.Builder{}
		} else if b == nil && len(s.open) >= maxOpenStreams {
			clear(s.open)
		}
		b = &strings.Builder{}
		b.Grow(len(cur) + len(delta))
		piecewise.WriteString(b, cur)
	} else {
		b = piecewise.Grow(b, len(delta))
	}
	s.open[k] = b
	piecewise.WriteString(b, delta)
	return b.String()
}

// end forgets stream k: its text is complete.
func (s *textStreams[K]) end(k K) { delete(s.open, k) }

// done forgets stream k, whose field holds cur, and returns what the field
// should hold from now on: cur itself, or a copy of it without the room the
// builder grew for more deltas (up to as much again as the text), which a
// finished text would otherwise keep for as long as the fold keeps it.
func (s *textStreams[K]) done(k K, cur string) string {
	b := s.open[k]
	delete(s.open, k)
	if b == nil || b.String() != cur || b.Cap()-len(cur) <= len(cur)/8+64 {
		return cur
	}
	return strings.Clone(cur)
}

// sameText returns the text of message id's content, and true, when it
// equals text: the transcript's copy of a finished message then shares the
// conversation's, instead of the fold keeping every message twice.
func (r *reduceState) sameText(id, text string) (string, bool) {
	if !r.byID.ready() {
		return "", false
	}
	m := r.byID.get(id)
	if m == nil || !m.Content.Present || m.Content.IsParts || m.Content.Object != nil || m.Content.Text != text {
		return "", false
	}
	return m.Content.Text, true
}
