package sanitize

import "testing"

func TestPlainAndSafeSGR(t *testing.T) {
	tests := []struct {
		name, in, plain, sgr string
	}{
		{"clean text is untouched", "ls -la\tfoo\nbar", "ls -la\tfoo\nbar", "ls -la\tfoo\nbar"},
		{"colours kept only by SafeSGR", "\x1b[31mred\x1b[0m", "red", "\x1b[31mred\x1b[0m"},
		{"clipboard write (OSC 52, BEL)", "a\x1b]52;c;ZXZpbA==\x07b", "ab", "ab"},
		{"window title (OSC 0, ST)", "a\x1b]0;pwned\x1b\\b", "ab", "ab"},
		{"cursor movement", "a\x1b[2J\x1b[H\x1b[10;10Hb", "ab", "ab"},
		{"private modes", "a\x1b[?1049hb\x1b[?25l", "ab", "ab"},
		{"8-bit CSI", "a\u009b2Jb", "ab", "ab"},
		{"other controls dropped", "a\x00\x07\x08\rb\x7f", "ab", "ab"},
		{"bidi override dropped", "a\u202eevil\u202cb", "aevilb", "aevilb"},
		{"unicode kept", "héllo ✓ 世界", "héllo ✓ 世界", "héllo ✓ 世界"},
		{"invalid UTF-8 replaced", "a\xffb", "a\uFFFDb", "a\uFFFDb"},
		{"SGR-looking but not SGR", "\x1b[31;1Hx", "x", "x"},
		{"cut-off escape at the end", "abc\x1b[31", "abc", "abc"},
		{"DCS", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab", "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Plain(tt.in); got != tt.plain {
				t.Errorf("Plain(%q) = %q, want %q", tt.in, got, tt.plain)
			}
			if got := SafeSGR(tt.in); got != tt.sgr {
				t.Errorf("SafeSGR(%q) = %q, want %q", tt.in, got, tt.sgr)
			}
		})
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;x\x07", "\x1b[31mx", "\u009b", "a\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Plain(s), SafeSGR(s)} {
			for i := 0; i < len(out); i++ {
				c := out[i]
				if c == 0x1b && out == Plain(s) {
					t.Fatalf("Plain(%q) kept ESC: %q", s, out)
				}
				if c < 0x20 && c != '\n' && c != '\t' && c != 0x1b {
					t.Fatalf("control %#x kept in %q", c, out)
				}
			}
		}
		// SafeSGR may only keep complete SGR sequences.
		out := SafeSGR(s)
		for i := 0; i < len(out); i++ {
			if out[i] == 0x1b {
				n := EscapeLen(out[i:])
				if !IsSGR(out[i : i+n]) {
					t.Fatalf("SafeSGR(%q) kept a non-SGR escape: %q", s, out)
				}
				i += n - 1
			}
		}
	})
}
