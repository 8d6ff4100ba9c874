package agui

import (
	"bytes"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MarshalEvent encodes an event a translator built from an agent's own
// file or telemetry, deterministically (object keys sorted). Such a file
// can hold bytes that are not UTF-8, in a string a translator cut from it
// or in a raw JSON value it passes on; each such byte becomes U+FFFD, as
// Decode reads them, so that every event encodes and holds strict JSON.
func MarshalEvent(ev any) ([]byte, error) {
	raw, err := json.Marshal(ev, json.Deterministic(true), jsontext.AllowInvalidUTF8(true))
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(raw) {
		// Outside its strings JSON is ASCII: only string bytes change.
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return raw, nil
}
