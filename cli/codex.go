package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newCodexCommand is `agentwatch codex [FOLDER]`: Codex's sessions.
func newCodexCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var all bool
	cmd := &cobra.Command{
		Use:   "codex [FOLDER]",
		Short: "Watch Codex's sessions of this folder (--all: every session), live",
		Long: `codex opens the sessions Codex ran in the current folder on the thread
list, newest activity first, and follows them as the agent writes: a
session started meanwhile joins the list. Each row names the session's
project (the folder it ran in). Enter opens a session; esc goes back to the
list.

Codex keeps a file per session (a rollout) in sessions/YYYY/MM/DD/ and
archived_sessions/ under its home folder, $CODEX_HOME or else ~/.codex;
a rollout compressed to .jsonl.zst is read too, unless its plain .jsonl is
there. A session is this folder's when its first line (session_meta) names
it as its cwd: only that line of each file is read to know. --all opens
every session. FOLDER names the home folder, or a folder of rollouts (its
sessions folder), instead.

Each row says what Codex does with the session now, looked at every
second: a session Codex holds open (its lock in thread-writer-locks is
held) is working while its last turn is open and idle after it; one it
does not hold is ended. Rows come working first, then idle, then ended,
newest activity first within each. --bell rings the terminal's bell when a
session starts waiting for you, as with agentwatch claude; Codex's rollouts
and locks do not say when it waits for an approval, so for Codex it rings
for none yet.

With --plain it prints one line per change of every session, read to its
end; piped output without --plain gets the step list. Exit status: 0, or 2
when no sessions are found (it says where it looked).

Examples:
  agentwatch codex                       this folder's sessions
  agentwatch codex --all                 every session
  agentwatch codex ~/.codex/sessions --all
  agentwatch codex --all --plain | grep FAILED`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := a.CodexSessions(fileArg(args), all)
			if err != nil {
				return err
			}
			return a.View(src)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "open every session, not only those run in the current folder")
	cmd.Flags().BoolVar(&opts.Bell, "bell", false, "ring the terminal's bell when a session starts waiting for you (Codex does not say so yet)")
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	filterFlag(cmd, opts)
	return cmd
}
