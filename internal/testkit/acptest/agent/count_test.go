package agent

import (
	"strings"
	"testing"
)

// A script's count is its default when none is given, the number given
// from 0 to maxBurst, and anything else a reply that says what is wanted.
func TestCountArg(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want int
		bad  bool
	}{
		{"", 7, false}, {"0", 0, false}, {"12", 12, false}, {"1000000", maxBurst, false},
		{"-1", 0, true}, {"1000001", 0, true}, {"x", 0, true}, {"1e3", 0, true},
	} {
		n, bad := countArg("calls", c.arg, 7)
		if (bad != "") != c.bad || (!c.bad && n != c.want) {
			t.Errorf("countArg(%q) = %d, %q", c.arg, n, bad)
		}
		if c.bad && !strings.HasPrefix(bad, "calls: want a count from 0 to 1000000") {
			t.Errorf("countArg(%q) says %q", c.arg, bad)
		}
	}
}
