package cli

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestClaudeSessionSteps is `agentwatch steps` on a Claude Code session
// file (testdata/claude): regenerate with -update and read it by eye.
func TestClaudeSessionSteps(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "steps", "../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.RequireEqual(t, out)
}
