package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newGeminiCommand is `agentwatch gemini [FOLDER]`: Gemini CLI's sessions.
func newGeminiCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var all bool
	cmd := &cobra.Command{
		Use:   "gemini [FOLDER]",
		Short: "Watch Gemini CLI's sessions of this project (--all: of every project), live",
		Long: `gemini opens the sessions Gemini CLI keeps for the project of the current
folder on the thread list, newest activity first, and follows them as the
agent writes: a session started meanwhile joins the list. Enter opens a
session; esc goes back to the list.

Gemini CLI keeps its sessions in tmp/<project>/chats/session-*.jsonl under
its home folder, ~/.gemini (or $GEMINI_CLI_HOME/.gemini); <project> is a
short name of the project (its .project_root file holds the project's
path) or, for older versions, the SHA-256 of the path. --all opens every
project's sessions. FOLDER names the home folder, its tmp folder, one
project's folder or its chats folder instead. Sessions written as one
.json file by versions before JSON Lines are not read.

Gemini CLI keeps no list of the sessions it runs: a row says working while
its file is being written, and nothing otherwise.

With --plain it prints one line per change of every session, read to its
end; piped output without --plain gets the step list. Exit status: 0, or 2
when no sessions are found (it says where it looked).

Examples:
  agentwatch gemini                      this project's sessions
  agentwatch gemini --all                every project's
  agentwatch gemini ~/.gemini --all --plain`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.GeminiSessions(fileArg(args), all)
			if err != nil {
				return err
			}
			return a.View(src)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "open the sessions of every project, not only the current folder's")
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	filterFlag(cmd, opts)
	return cmd
}
