package app

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// Quitting the screen of an agent behind a wrapper (a shell whose child
// holds the agent's pipes, as npx's does) ends it at the first ctrl+c:
// the agent is stopped, not waited for without end.
func TestACPScreenQuitsAgentBehindWrapper(t *testing.T) {
	bin := acptest.Build(t)
	screen, typed, done := acpOnScreen(t, []string{"sh", "-c", `"$0"; true`, bin})
	deadline := time.Now().Add(20 * time.Second)
	// The session's mode shows once the session is open.
	for !strings.Contains(screen(), "mode code") {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never came:\n%s", screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
	io.WriteString(typed, "\x03")
	if err := waitResult(t, done); err != nil {
		t.Errorf("quitting: %v", err)
	}
}
