package tui

import (
	"testing"

	"github.com/agentwatch/agentwatch/internal/golden"
)

// checkGolden compares got with testdata/<dir>/<name>, or writes it there
// with -update; run names the test to rerun with -update.
func checkGolden(t *testing.T, dir, name, got, run string) {
	t.Helper()
	golden.Check(t, dir, name, got, run)
}
