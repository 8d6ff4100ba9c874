package cli

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestSessionGoldens are `agentwatch steps` and `agentwatch fold` on the
// agents' session fixtures that have no golden of their own elsewhere: a
// Claude Code session, one whose Task calls ran subagents (read with it:
// their steps nested under the calls), and a Codex rollout whose spawned
// agent is read with it. Regenerate with -update and read each by eye.
func TestSessionGoldens(t *testing.T) {
	for _, tc := range []struct{ name, cmd, path string }{
		{"claude-fold", "fold", claudeFixture},
		{"claude-subagents-steps", "steps", "../testdata/claude/projects/-home-dev-api/c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8.jsonl"},
		{"claude-subagents-fold", "fold", "../testdata/claude/projects/-home-dev-api/c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8.jsonl"},
		{"codex-fold", "fold", codexFixture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, tc.cmd, tc.path)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden.RequireEqual(t, out)
		})
	}
}
