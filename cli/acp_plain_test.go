package cli

import (
	"strings"
	"testing"
)

// lineIndex is the index of the first line of out that is want, -1 when
// none is.
func lineIndex(out, want string) int {
	for i, l := range strings.Split(out, "\n") {
		if l == want {
			return i
		}
	}
	return -1
}

// acp --plain prints a permission request where it happened: asked and
// answered before the run that asked it completes, not after it; its run
// is run 1 whatever the prompt's JSON-RPC id; and a request rejected for
// want of someone to ask says how to answer it, once, on stderr.
func TestACPPlainPermissionInOrder(t *testing.T) {
	for _, tc := range []struct {
		flags  []string
		answer string
	}{
		{nil, "rejected"},
		{[]string{"--permissions", "allow-once"}, "allowed once"},
		{[]string{"--permissions", "allow-always"}, "allowed always"},
	} {
		args := append(append([]string{"--plain"}, tc.flags...), "--prompt", "permission")
		code, out, errOut, _ := acpRun(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", tc.flags, code, out, errOut)
		}
		started, answered := lineIndex(out, "run 1 started"), lineIndex(out, "permission · Edit config.yaml? · "+tc.answer)
		completed, ended := lineIndex(out, "run 1 completed (end_turn)"), lineIndex(out, "turn ended: end_turn")
		if started < 0 || answered < started || completed < answered || ended < completed {
			t.Errorf("%v: want run 1 started, the permission %s, run 1 completed, turn ended, in that order:\n%s", tc.flags, tc.answer, out)
		}
		if strings.Contains(out, "permission for") || strings.Count(out, "permission ·") > 2 {
			t.Errorf("%v: the permission is told more than once:\n%s", tc.flags, out)
		}
		hint := strings.Contains(errOut, "--permissions allow-once")
		if hint != (tc.answer == "rejected") || strings.Count(errOut, "\n") > 1 {
			t.Errorf("%v: stderr %q", tc.flags, errOut)
		}
	}
}
