package cli

import (
	"strings"
	"testing"
)

// --filter is read before anything is opened: a word it does not know is
// bad input (exit 2) that names the word and what the filter takes.
func TestFilterFlagRefusesUnknownWords(t *testing.T) {
	for _, args := range [][]string{
		{"--filter", "failed,bogus", "../assets/demo.jsonl"},
		{"tail", "--filter", "bogus", "../assets/demo.jsonl"},
	} {
		code, _, stderr := runCLI(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, `"bogus"`) || !strings.Contains(stderr, "--filter") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
