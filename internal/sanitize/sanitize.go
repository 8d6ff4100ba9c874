// Package sanitize makes agent text safe for a terminal. Everything an
// agent sends is untrusted: before it reaches the screen every escape
// sequence and control character goes, except the SGR colours a view may
// keep (docs/ARCHITECTURE.md, Trust).
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Plain returns s with every terminal escape sequence and control character
// removed (tabs and newlines kept), for output that shows no colours. A
// title with `ESC ]52;` cannot write the clipboard, a tool output cannot move
// the cursor or change the window title.
func Plain(s string) string {
	return sanitize(s, false)
}

// SafeSGR returns s with escape sequences removed except SGR colour
// sequences (`ESC [ … m`), which the screen may keep.
func SafeSGR(s string) string {
	return sanitize(s, true)
}

func sanitize(s string, keepSGR bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			n := EscapeLen(s[i:])
			if keepSGR && IsSGR(s[i:i+n]) {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		case r == 0x9b: // 8-bit CSI
			n := csiLen(s[i+size:]) + size
			i += n
			continue
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// other C0 and C1 controls: dropped
		case r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069'):
			// line separators and bidi overrides can disguise text: dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// EscapeLen returns the length of the escape sequence at the start of s (which starts with ESC).
func EscapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiLen(s[2:])
	case ']', 'P', '_', '^', 'X':
		// OSC, DCS, APC, PM, SOS: up to BEL or ST (ESC \)
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	// Two-byte escapes, and ESC followed by intermediates then a final byte.
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		i++
	}
	return i
}

// csiLen returns the length of CSI parameters, intermediates and final byte.
func csiLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f && c < 0x40 {
			return i
		}
	}
	return len(s)
}

// IsSGR reports whether seq, an escape sequence as EscapeLen delimits it,
// is an SGR colour sequence (`ESC [ params m`).
func IsSGR(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, c := range seq[2 : len(seq)-1] {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// OneLine makes untrusted text safe and flat for one line: escapes and
// controls removed, every run of white space (line breaks included) one
// space, no space at either end.
func OneLine(s string) string {
	return strings.Join(strings.Fields(Plain(s)), " ")
}
