package sources

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What goes into an error about an endpoint: its address without secrets,
// and what it answered without anything a terminal would act on. Errors
// are printed, and the screen's title bar shows them; a 401 page must not
// be able to set the clipboard or clear the screen, and a token in a URL
// must not end up in a CI log.

// peerTextRunes is how much of an endpoint's answer an error quotes.
const peerTextRunes = 300

// RedactURL returns raw with its secrets replaced by "xxxxx": the password
// of "user:password@", the whole of a user name alone (often a token, as in
// https://TOKEN@host/), and the value of a query parameter whose name says
// it holds one (api_key, token, access_token, key, secret, password, sig,
// auth…). Text that is not a URL is returned as it is.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.Index(raw, "@"); i >= 0 && strings.Contains(raw[:i], "://") {
			// Not parsed, but it has something before an @: drop it.
			return raw[:strings.Index(raw, "://")+3] + "xxxxx" + raw[i:]
		}
		return raw
	}
	changed := false
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		} else {
			u.User = url.User("xxxxx")
		}
		changed = true
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, has := strings.Cut(p, "=")
			if has && secretParam(name) {
				parts[i], changed = name+"=xxxxx", true
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if !changed {
		return raw
	}
	return u.String()
}

// secretParam reports whether a query parameter's name says its value is
// a secret.
func secretParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(name))
	for _, s := range []string{"key", "token", "secret", "password", "passwd", "pwd", "auth", "sig", "signature", "credential", "session"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// peerText returns text an endpoint sent (an error page, a reason phrase)
// fit to quote in an error: escape sequences and control characters
// removed, runs of white space made one space, and at most peerTextRunes
// characters, "…" marking a cut. Invalid UTF-8 becomes U+FFFD.
func peerText(s string) string {
	var b strings.Builder
	space, n := false, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeSeqLen(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x9e || r == 0x9f:
			// 8-bit CSI, OSC, DCS, PM and APC: their parameters go too.
			i += size + c1SeqLen(r, s[i+size:])
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case unicode.IsControl(r), r == utf8.RuneError && size == 1, isBidi(r):
			// dropped: invisible or acted on by a terminal
		default:
			if space {
				if n++; n > peerTextRunes {
					return b.String() + "…"
				}
				b.WriteByte(' ')
				space = false
			}
			if n++; n > peerTextRunes {
				return b.String() + "…"
			}
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// isBidi reports whether r changes the direction of the text around it.
func isBidi(r rune) bool {
	return r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// escapeSeqLen is the length of the escape sequence at the start of s,
// which starts with ESC: a CSI to its final byte, a string sequence (OSC,
// DCS, SOS, PM, APC) to its BEL or ST, anything else ESC and one byte.
func escapeSeqLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiParamsLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringSeqLen(s[2:])
	}
	return 2
}

// c1SeqLen is the length of what follows the 8-bit control r at the start
// of s and belongs to it.
func c1SeqLen(r rune, s string) int {
	if r == 0x9b {
		return csiParamsLen(s)
	}
	return stringSeqLen(s)
}

// csiParamsLen is the length of a CSI's parameters and final byte.
func csiParamsLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f {
			return i
		}
	}
	return len(s)
}

// stringSeqLen is the length of a string sequence's body up to and with
// its terminator: BEL, ESC \ or the 8-bit ST (U+009C).
func stringSeqLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
