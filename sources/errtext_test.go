package sources

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://u:PW@example.com/run", "http://u:xxxxx@example.com/run"},
		{"https://TOKEN@example.com:8443/a?b=1", "https://xxxxx@example.com:8443/a?b=1"},
		{"http://example.com/run", "http://example.com/run"},
		{"http://u:PW@[::1", "http://xxxxx@[::1"}, // unparsable: all of it goes
		{"not a url", "not a url"},
		{"https://h/run?api_key=TOKEN&page=2", "https://h/run?api_key=xxxxx&page=2"},
		{"https://h/run?page=2&X-Amz-Signature=TOKEN&access_token=TOKEN", "https://h/run?page=2&X-Amz-Signature=xxxxx&access_token=xxxxx"},
		{"https://u:PW@h/?token=TOKEN", "https://u:xxxxx@h/?token=xxxxx"},
		{"", ""},
	} {
		got := RedactURL(tc.in)
		if got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "PW") || strings.Contains(got, "TOKEN") {
			t.Errorf("RedactURL(%q) shows the secret: %q", tc.in, got)
		}
	}
}

// What an endpoint answers is quoted without anything a terminal acts on,
// on one line, cut short.
func TestPeerText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bad token", "bad token"},
		{"<h1>401</h1>\n\n  <p>go away</p>\r\n", "<h1>401</h1> <p>go away</p>"},
		{"clip\x1b]52;c;aGk=\x07board", "clipboard"},
		{"title\x1b]0;pwned\x1b\\ set", "title set"},
		{"clear\x1b[2J\x1b[H screen", "clear screen"},
		{"8-bit \u009b2J csi \u009d0;t\u009c osc \u0090q\u009c dcs", "8-bit csi osc dcs"},
		{"bell\a nul\x00 del\x7f", "bell nul del"},
		{"txt.\u202eexe", "txt.exe"},
		{"bad \xff utf8", "bad utf8"},
	} {
		if got := peerText(tc.in); got != tc.want {
			t.Errorf("peerText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := peerText(strings.Repeat("word ", 1000))
	if n := utf8.RuneCountInString(long); n > peerTextRunes+1 || !strings.HasSuffix(long, "…") {
		t.Errorf("a long answer is %d characters: %q", n, long)
	}
}
