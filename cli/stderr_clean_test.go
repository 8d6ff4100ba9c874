package cli

import (
	"strings"
	"testing"
)

// Every error reaches stderr cleaned, whatever it quotes: a file name
// holding an OSC 52 clipboard write, a title change and 8-bit controls is
// named, but nothing of it acts on the terminal.
func TestErrorsReachStderrCleaned(t *testing.T) {
	name := "/no/such\x1b]52;c;cHduZWQ=\x07dir\x1b]0;title\x07\u009b2J\u202e/log.jsonl"
	for _, args := range [][]string{{"fold", name}, {"validate", name}, {"compact", name}} {
		code, _, errOut := runCLI(t, nil, args...)
		if code != exitUnreadable || !strings.Contains(errOut, "/no/such") {
			t.Fatalf("%v: exit %d, stderr %q", args[0], code, errOut)
		}
		for _, r := range errOut {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
				t.Fatalf("%v: stderr holds %U: %q", args[0], r, errOut)
			}
		}
	}
}
