package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newCopilotCommand is `agentwatch copilot [FOLDER]`: GitHub Copilot CLI's
// sessions.
func newCopilotCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var all bool
	cmd := &cobra.Command{
		Use:   "copilot [FOLDER]",
		Short: "Watch GitHub Copilot CLI's sessions of this folder (--all: every session), live",
		Long: `copilot opens the sessions GitHub Copilot CLI ran in the current folder on
the thread list, newest activity first, and follows them as the agent
writes: a session started meanwhile joins the list. Each row names the
session's project (the folder it ran in). Enter opens a session; esc goes
back to the list.

Copilot CLI keeps a folder per session, session-state/<id>/, with its
events in events.jsonl, under its home folder, $COPILOT_HOME or else
~/.copilot. A session is this folder's when its first event
(session.start) names it as its folder: only that line of each file is
read to know. --all opens every session. FOLDER names the home folder, its
session-state folder or one session's folder instead.

Each row says what the session does now: ended once Copilot wrote its
session.shutdown; waiting for you while a permission it asked for is not
answered; working while its events are being written; otherwise its last
turn says working or idle. --bell rings the terminal's bell when a session
starts waiting for you. Copilot keeps no list of the sessions
it runs, so a session whose process died without a shutdown stays idle.

With --plain it prints one line per change of every session, read to its
end; piped output without --plain gets the step list. Exit status: 0, or 2
when no sessions are found (it says where it looked).

Examples:
  agentwatch copilot                     this folder's sessions
  agentwatch copilot --all               every session
  agentwatch copilot ~/.copilot --all --plain`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.CopilotSessions(fileArg(args), all)
			if err != nil {
				return err
			}
			return a.View(src)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "open every session, not only those run in the current folder")
	cmd.Flags().BoolVar(&opts.Bell, "bell", false, "ring the terminal's bell when a session starts waiting for you")
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	filterFlag(cmd, opts)
	return cmd
}
