package fold

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// say formats a message a user reads (a diagnostic, a warning) with the
// untrusted strings in it (ids, types, names from the input) made visible
// first: a control character or a bidi override inside an id is written
// as \u001b and the like. Cleaned after formatting, an unterminated escape
// at the end of an id would swallow the words that follow it. Values
// without such characters are formatted as they are, so messages stay the
// reference's word for word.
func say(format string, args ...any) string {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = visible(v)
		case error:
			args[i] = visible(v.Error())
		}
	}
	return fmt.Sprintf(format, args...)
}

// sayErr is say for an error.
func sayErr(format string, args ...any) error {
	return fmt.Errorf("%s", say(format, args...))
}

// visible is s with control characters, DEL, C1 controls and bidi
// formatting characters written as \uXXXX escapes; s itself when it has
// none.
func visible(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(h)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hidden reports whether r would act on a terminal or reorder text rather
// than show: C0 and C1 controls, DEL, and bidi formatting characters.
func hidden(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r < 0xa0) || unicode.Is(unicode.Bidi_Control, r)
}
