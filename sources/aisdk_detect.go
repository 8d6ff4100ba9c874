package sources

// Telling an AI SDK UIMessage file from an AG-UI event log by its first
// value, without reading more of an ordinary log than its first event.

import (
	"bytes"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// uiMessagesShape tells whether b looks like a UIMessage file: a JSON array
// whose first element is an object with "role" and a "parts" array and no
// "type" (events have one), or an object with such a "messages" array and
// no "type" or "events" member. It returns the array and, for the object
// form, its "id" (useChat's chat id) as the thread. It reads no more of an
// ordinary event log than its first event.
func uiMessagesShape(b []byte) (list jsontext.Value, thread string, ok bool) {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return nil, "", false
	}
	d := jsontext.NewDecoder(bytes.NewReader(b), lenient...)
	switch b[0] {
	case '[':
		if _, err := d.ReadToken(); err != nil || d.PeekKind() != '{' {
			return nil, "", false
		}
		first, err := d.ReadValue()
		if err != nil || !looksLikeUIMessage(first) {
			return nil, "", false
		}
		return b, "", true
	case '{':
		if _, err := d.ReadToken(); err != nil {
			return nil, "", false
		}
		for d.PeekKind() == '"' {
			name, err := d.ReadToken()
			if err != nil {
				return nil, "", false
			}
			switch name.String() {
			case "type", "events":
				return nil, "", false
			case "messages":
				if d.PeekKind() != '[' {
					return nil, "", false
				}
				v, err := d.ReadValue()
				if err != nil {
					return nil, "", false
				}
				list = v.Clone() // v is only valid until the next read

			case "id":
				v, err := d.ReadValue()
				if err != nil {
					return nil, "", false
				}
				if v.Kind() == '"' {
					_ = agui.UnmarshalValue(v, &thread)
				}
			default:
				if d.SkipValue() != nil {
					return nil, "", false
				}
			}
		}
		if tok, err := d.ReadToken(); err != nil || tok.Kind() != '}' {
			return nil, "", false
		}
		if _, err := d.ReadToken(); err != io.EOF {
			return nil, "", false // JSON Lines, or garbage after the object
		}
		if list == nil || !firstLooksLikeUIMessage(list) {
			return nil, "", false
		}
		return list, thread, true
	}
	return nil, "", false
}

// firstLooksLikeUIMessage reports whether the array list starts with a UIMessage.
func firstLooksLikeUIMessage(list jsontext.Value) bool {
	d := jsontext.NewDecoder(bytes.NewReader(list), lenient...)
	if _, err := d.ReadToken(); err != nil || d.PeekKind() != '{' {
		return false
	}
	first, err := d.ReadValue()
	return err == nil && looksLikeUIMessage(first)
}

// looksLikeUIMessage reports whether the object v has "role" and a "parts"
// array and no "type".
func looksLikeUIMessage(v jsontext.Value) bool {
	d := jsontext.NewDecoder(bytes.NewReader(v), lenient...)
	if _, err := d.ReadToken(); err != nil {
		return false
	}
	role, parts := false, false
	for d.PeekKind() == '"' {
		name, err := d.ReadToken()
		if err != nil {
			return false
		}
		switch name.String() {
		case "type":
			return false
		case "role":
			role = true
		case "parts":
			parts = d.PeekKind() == '['
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return role && parts
}
