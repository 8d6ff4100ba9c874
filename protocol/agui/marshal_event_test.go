package agui

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// An event built from a file with broken bytes, in a string and in a raw
// JSON value, encodes as strict JSON with U+FFFD in their place.
func TestMarshalEventInvalidUTF8(t *testing.T) {
	ev := map[string]any{
		"type":    TypeToolCallArgs,
		"delta":   "{\"cmd\":\"ls \xff\xfe\"}",
		"content": json.RawMessage("{\"x\":\"a\xc3\"}"),
	}
	if _, err := MarshalValue(ev); err == nil {
		t.Fatal("MarshalValue took invalid UTF-8: the test proves nothing")
	}
	raw, err := MarshalEvent(ev)
	if err != nil {
		t.Fatalf("MarshalEvent: %v", err)
	}
	if !utf8.Valid(raw) || !jsontext.Value(raw).IsValid() {
		t.Fatalf("not strict JSON: %q", raw)
	}
	want := `{"content":{"x":"a` + "\uFFFD" + `"},"delta":"{\"cmd\":\"ls ` + "\uFFFD\uFFFD" + `\"}","type":"TOOL_CALL_ARGS"}`
	if string(raw) != want {
		t.Fatalf("got  %s\nwant %s", raw, want)
	}
}
