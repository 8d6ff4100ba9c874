package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newAgentsCommand is `agentwatch agents`: every agent's sessions in one
// thread list.
func newAgentsCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var all bool
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "Watch every coding agent's sessions of this project (--all: of every project), live",
		Long: `agents opens the sessions of every coding agent agentwatch reads that it
finds on this machine, in one thread list, newest activity first, each
row's project marked by its agent: Claude Code (as agentwatch claude
finds them), Codex (agentwatch codex), GitHub Copilot CLI (agentwatch
copilot) and Gemini CLI (agentwatch gemini). Without --all, those of the
current folder's project; with it, every project's. It follows them as
the agents write, says what each does now where the agent tells, and
--bell rings the terminal's bell when a session starts waiting for you.

With --plain it prints one line per change of every session, read to its
end. Exit status: 0, or 2 when no agent's sessions are found (it says
where it looked).

Examples:
  agentwatch agents                      this project's sessions, every agent
  agentwatch agents --all --bell`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.AllAgentSessions(all)
			if err != nil {
				return err
			}
			return a.View(src)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "open the sessions of every project, not only the current folder's")
	cmd.Flags().BoolVar(&opts.Bell, "bell", false, "ring the terminal's bell when a session starts waiting for you")
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	filterFlag(cmd, opts)
	return cmd
}
