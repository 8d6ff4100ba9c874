package cli

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// geminiFixture is the Gemini CLI session of testdata/gemini.
const geminiFixture = "../testdata/gemini/tmp/e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb/chats/session-2026-04-20T09-15-8e2b7c14.jsonl"

// TestGeminiSessionSteps is `agentwatch steps` on a Gemini CLI session
// file: regenerate with -update and read it by eye.
func TestGeminiSessionSteps(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "steps", geminiFixture)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.RequireEqual(t, out)
}

// TestGeminiSessionFold is `agentwatch fold` on the same file: its
// messages, state, steps and runs (the rewound run and the branch beside
// it) as JSON.
func TestGeminiSessionFold(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "fold", geminiFixture)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.RequireEqual(t, out)
}
