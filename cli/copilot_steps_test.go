package cli

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// copilotSession is the session file of testdata/copilot.
const copilotSession = "../testdata/copilot/session-state/5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40/events.jsonl"

// TestCopilotSessionSteps is `agentwatch steps` on a Copilot CLI session
// file (testdata/copilot): regenerate with -update and read it by eye.
func TestCopilotSessionSteps(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "steps", copilotSession)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.RequireEqual(t, out)
}

// TestCopilotSessionFold is `agentwatch fold` on the same file: the
// conversation, the steps' results and the session's state as the fold
// has them. Regenerate with -update and read it by eye.
func TestCopilotSessionFold(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "fold", copilotSession)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.RequireEqual(t, out)
}
