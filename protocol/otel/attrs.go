package otel

import (
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// str is the first of keys that m holds with a non-empty value, as text
// (maps and lists as JSON).
func str(m pcommon.Map, keys ...string) string {
	for _, k := range keys {
		if v, ok := m.Get(k); ok {
			if s := text(v); s != "" {
				return s
			}
		}
	}
	return ""
}

// text is a value as text: strings as they are, anything else as
// pcommon renders it (JSON for maps and lists).
func text(v pcommon.Value) string {
	switch v.Type() {
	case pcommon.ValueTypeEmpty:
		return ""
	case pcommon.ValueTypeStr:
		return v.Str()
	}
	return v.AsString()
}

// num is the first of keys that m holds as a number, or as text that
// reads as one: agents send counts both ways ("714" and 714).
func num(m pcommon.Map, keys ...string) (float64, bool) {
	for _, k := range keys {
		v, ok := m.Get(k)
		if !ok {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeInt:
			return float64(v.Int()), true
		case pcommon.ValueTypeDouble:
			return v.Double(), true
		case pcommon.ValueTypeStr:
			if f, err := strconv.ParseFloat(strings.TrimSpace(v.Str()), 64); err == nil {
				return f, true
			}
		}
	}
	return 0, false
}

// count is num as a whole count (negative and fractional counts are not
// counts).
func count(m pcommon.Map, keys ...string) (int64, bool) {
	f, ok := num(m, keys...)
	if !ok || f < 0 || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// flag is the first of keys that m holds as a boolean or as "true"/"false".
func flag(m pcommon.Map, keys ...string) (value, ok bool) {
	for _, k := range keys {
		v, found := m.Get(k)
		if !found {
			continue
		}
		switch v.Type() {
		case pcommon.ValueTypeBool:
			return v.Bool(), true
		case pcommon.ValueTypeStr:
			if b, err := strconv.ParseBool(strings.TrimSpace(v.Str())); err == nil {
				return b, true
			}
		}
	}
	return false, false
}

// redacted reports text that an agent sends in place of content it was
// told not to record.
func redacted(s string) bool {
	switch strings.TrimSpace(s) {
	case "<REDACTED>", "[REDACTED]", "REDACTED", "<redacted>", "[redacted]":
		return true
	}
	return false
}
