package agui

import (
	"strconv"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/internal/piecewise"
	"github.com/agentwatch/agentwatch/model"
)

// decodeDelta decodes the events that make up most of any log — a text,
// reasoning or tool-call argument delta — without the reflection of the
// general decoder, when the event is plain: only its own members (type, the
// id, delta, an integer timestamp), each once, strings without \u escapes
// or invalid UTF-8. ok is false for anything else, which the general
// decoder then reads exactly as before; FuzzDeltaFastPath holds the two to
// the same result.
//
// Deltas are about 78% of the events of a realistic log (internal/testkit/loggen)
// and decoding them took 44% of the CPU of reading, decoding and folding
// it (BenchmarkReadDecodeFoldPipelined); this path decodes one in about a
// fifth of the time.
func decodeDelta(raw []byte, typ string) (model.Event, bool) {
	idKey := "messageId"
	if typ == TypeToolCallArgs {
		idKey = "toolCallId"
	}
	var (
		id, delta  string
		ts         Timestamp
		seen       uint8
		haveID     bool
		haveDelta  bool
		i          = skipSpace(raw, 0)
		key, value []byte
		ok         bool
	)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return nil, false
	}
	for {
		if key, i, ok = plainKey(raw, i); !ok {
			return nil, false
		}
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		var bit uint8
		switch string(key) {
		case "type":
			bit = 1
			if value, i, ok = plainKey(raw, i); !ok || string(value) != typ {
				return nil, false
			}
		case idKey:
			bit, haveID = 2, true
			if id, i, ok = jsonString(raw, i); !ok {
				return nil, false
			}
		case "delta":
			bit, haveDelta = 4, true
			if delta, i, ok = jsonString(raw, i); !ok {
				return nil, false
			}
		case "timestamp":
			bit = 8
			start := i
			if i < len(raw) && raw[i] == '-' {
				i++
			}
			digits := i
			for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
				i++
			}
			// An integer without a leading zero; anything else (a float, a
			// string, null) is the general decoder's.
			if i == digits || (raw[digits] == '0' && i-digits > 1) {
				return nil, false
			}
			ms, err := strconv.ParseFloat(string(raw[start:i]), 64)
			if err != nil {
				return nil, false
			}
			ts = Timestamp{Millis: ms, Valid: true}
		default:
			return nil, false
		}
		if seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		i = skipSpace(raw, i)
		if i >= len(raw) {
			return nil, false
		}
		if raw[i] == '}' {
			break
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
	if skipSpace(raw, i+1) != len(raw) || !haveID || !haveDelta || seen&1 == 0 {
		return nil, false
	}
	base := Base{Type: typ, Timestamp: ts}
	switch typ {
	case TypeTextMessageContent:
		return &TextMessageContent{Base: base, MessageID: id, Delta: delta}, true
	case TypeReasoningMessageContent:
		return &ReasoningMessageContent{Base: base, MessageID: id, Delta: delta}, true
	case TypeToolCallArgs:
		return &ToolCallArgs{Base: base, ToolCallID: id, Delta: delta}, true
	}
	return nil, false
}

// plainKey reads a string of printable ASCII without escapes (a member
// name or the type) starting at the quote at raw[i]; it returns its bytes
// and the index after the closing quote.
func plainKey(raw []byte, i int) ([]byte, int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			return raw[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, i, false
		}
	}
	return nil, i, false
}

// jsonString reads a JSON string starting at the quote at raw[i]: valid
// UTF-8, no control characters, and of the escapes only the one-letter
// ones (a \u escape is left to the general decoder).
func jsonString(raw []byte, i int) (string, int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return "", i, false
	}
	start := i + 1
	j := start
	for ; j < len(raw); j++ {
		c := raw[j]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	if j < len(raw) && raw[j] == '"' {
		s := raw[start:j]
		if !utf8.Valid(s) {
			return "", i, false
		}
		return piecewise.String(s), j + 1, true
	}
	// Unescaping never lengthens a string: out never has to grow.
	out := make([]byte, 0, len(raw)-start)
	out = piecewise.Append(out, raw[start:j])
	for ; j < len(raw); j++ {
		c := raw[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", i, false
			}
			return piecewise.String(out), j + 1, true
		case c < 0x20:
			return "", i, false
		case c != '\\':
			out = append(out, c)
			continue
		}
		j++
		if j >= len(raw) {
			return "", i, false
		}
		switch raw[j] {
		case '"', '\\', '/':
			out = append(out, raw[j])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default:
			return "", i, false
		}
	}
	return "", i, false
}
