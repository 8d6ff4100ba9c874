package sources

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/internal/jsonwords"
	"github.com/agentwatch/agentwatch/model"
)

// lenient are the jsontext options every reader uses. Duplicate member
// names and invalid UTF-8 are accepted because JavaScript producers emit
// both and JSON.parse takes them; refusing would turn a whole JSON array
// log unreadable over one stray byte. The fold decides what a value means.
var lenient = []jsontext.Options{
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
}

// validJSON reports whether b is exactly one JSON value (whitespace around
// it allowed). It is the fast path; valueError explains a failure.
func validJSON(b []byte) bool {
	return jsontext.Value(b).IsValid(lenient...)
}

// valueError returns why b is not exactly one JSON value, or nil. Its
// offsets (in a *jsontext.SyntacticError) are relative to b.
func valueError(b []byte) error {
	d := jsontext.NewDecoder(bytes.NewReader(b), lenient...)
	if _, err := d.ReadValue(); err != nil {
		if err == io.EOF {
			return &jsontext.SyntacticError{Err: io.ErrUnexpectedEOF}
		}
		return err
	}
	tail := d.UnreadBuffer()
	rest := bytes.TrimLeft(tail, " \t\r\n")
	at := d.InputOffset() + int64(len(tail)-len(rest))
	_, err := d.ReadToken()
	if err == nil {
		// The decoder reads streams of values; here a second one is wrong.
		c, _ := utf8.DecodeRune(rest)
		err = &jsontext.SyntacticError{ByteOffset: at,
			Err: errors.New("invalid character " + strconv.QuoteRune(c) + " after top-level value")}
	}
	if err == io.EOF {
		return nil
	}
	return err
}

// cutOff reports whether err means the JSON ended before the value did.
func cutOff(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// describe turns a jsontext error into words for a user, without the
// package prefix, and the offset (relative to the value) it points at.
func describe(err error) (string, int64) {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return err.Error(), 0
	}
	if cutOff(se.Err) {
		return "the JSON value ends early", se.ByteOffset
	}
	if se.Err == nil {
		return "invalid JSON", se.ByteOffset
	}
	return se.Err.Error(), se.ByteOffset
}

// unreadable builds the stand-in event for input that is not an event.
func unreadable(offset int64, format string, args ...any) *model.Unreadable {
	return &model.Unreadable{Reason: fmt.Sprintf(format, args...), Offset: offset}
}

// notObject explains a valid JSON value that is not an event object; where
// is empty or ends in ": ", as for the other problems.
func notObject(raw []byte, offset int64, where string) *model.Unreadable {
	return unreadable(offset, "%sa JSON %s, not an event object", where, kindOf(jsontext.Value(raw).Kind()))
}

// kindOf names a token kind for a user, after "a JSON": "object", or
// "value" for a kind that starts none.
func kindOf(k jsontext.Kind) string { return cmp.Or(jsonwords.Noun(k), "value") }

// tooBig explains an event over the size limit.
func tooBig(offset, limit int64, where string) *model.Unreadable {
	return unreadable(offset, "%sevent at byte %d is larger than %s; skipped", where, offset, size(limit))
}

// truncated explains input that ends inside an event.
func truncated(offset, n int64, where string) *model.Unreadable {
	return unreadable(offset, "%sinput ends inside an event (the log is still being written or was cut off): %d bytes not read", where, n)
}

// size writes a byte count the way a user reads it: 64 MiB, 512 KiB, 100 bytes.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	case n == 1:
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
