package app

import (
	"testing"

	"github.com/agentwatch/agentwatch/sources"
)

// A followed file that is there but cannot be opened is said so, not as a
// file still awaited.
func TestTailStatusSaysCannotOpen(t *testing.T) {
	if got := tailStatus(sources.TailUnopened); got == "" || got == tailStatus(sources.TailWaiting) {
		t.Fatalf("TailUnopened says %q", got)
	}
}
