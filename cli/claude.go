package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newClaudeCommand is `agentwatch claude [FOLDER]`: Claude Code's sessions.
func newClaudeCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var all bool
	cmd := &cobra.Command{
		Use:   "claude [FOLDER]",
		Short: "Watch Claude Code's sessions of this project (--all: of every project), live",
		Long: `claude opens the sessions Claude Code keeps for the project of the current
folder on the thread list, newest activity first, and follows them as the
agent writes: a session started meanwhile joins the list. Each row names the
session's project (the folder it ran in). Enter opens a session; esc goes
back to the list.

Claude Code keeps a file per session in projects/<project>/ under its
configuration folder, the first of $CLAUDE_CONFIG_DIR, ~/.claude and
~/.config/claude that has one; <project> is the project's path with every
character but a letter or a digit made "-". --all opens every project's
sessions. FOLDER names the configuration folder, its projects folder or one
project's folder instead. A subagent's file (in the session's own folder,
or agent-<id>.jsonl beside it) is read with its session: its steps show
under the Task or Agent step that started it, as it works.

Each row says what Claude Code does with the session now, from its registry
of running sessions (sessions/<pid>.json in the same configuration folder),
looked at every second: working, waiting for you (a permission or a
question), idle, or ended; rows come in that order, newest activity first
within each. A session that starts waiting for you is marked ! until you
select it; --bell also rings the terminal's bell.

With --plain it prints one line per change of every session, read to its
end; piped output without --plain gets the step list. Exit status: 0, or 2
when no sessions are found (it says where it looked).

Examples:
  agentwatch claude                      this project's sessions
  agentwatch claude --all                every project's
  agentwatch claude --all --bell         ring when a session waits for you
  agentwatch claude ~/.claude/projects/-home-me-app
  agentwatch claude --all --plain | grep FAILED`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.ClaudeSessions(fileArg(args), all)
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
