package cli

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newACPCommand is `agentwatch acp -- CMD ARGS…`: run an ACP agent and
// watch and drive it.
func newACPCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var ao app.ACPOptions
	cmd := &cobra.Command{
		Use:   "acp [flags] -- CMD [ARGS…]",
		Short: "Run an ACP agent and watch it: every tool call a step on the agent computer",
		Long: `acp starts an agent that speaks the Agent Client Protocol (ACP v1) on its
standard input and output — Claude, Codex, Gemini, goose and OpenCode adapters
do — and shows the session: messages, thoughts, the plan, and every tool call
as a step with its kind, locations, diff, terminal output and images.

Type a prompt at the bottom and press Enter; esc cancels the turn. /mode ID
switches mode; / completes the agent's slash commands (tab). When the agent
asks for permission a dialog shows the tool call and its options (keys 1–9,
y allow once, a allow always, n reject, N reject always, esc cancel). Nothing
is approved unless --permissions says so.

The agent may read files inside the session folder (--cwd), write them only
with --allow-write and run commands only with --allow-terminal; paths that
lead out of the folder are refused, also through a symlink swapped in after
the path was checked (files are opened through the folder itself). Its standard error never goes onto the
screen as it comes: its last lines are kept, and shown (escape sequences
removed) when the agent fails to start. --stderr-log FILE keeps all of it,
appended to FILE; without it nothing is written to disk.

--list lists the agent's sessions; --load ID replays one (session/load, on
its own connection) with the replay controls, at --pace per update.
--record FILE keeps every JSON-RPC line in both directions with its time, in
a new file readable by you alone (mode 0600); a write that fails (a full
disk) stops the session with an error, the file ending after its last whole
line. agentwatch replay FILE plays it back at its true pace, no agent needed.
Output files are only ever regular files or new paths: a device, a named
pipe, a folder or a link to one is refused.
--plain --prompt TEXT runs one turn headless and exits 0 on end_turn; with
no one to ask, it rejects permission requests unless --permissions answers
them.

The agent runs in a process group of its own. When the turn ends or the
screen is quit its input is closed; if it still runs 2 s later, it and all
it started get SIGTERM, then SIGKILL, so an agent behind a wrapper (sh -c,
npx) cannot keep agentwatch waiting. A message of 10 MiB or more from the
agent ends the session, saying so: the ACP SDK reads none.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.BadInput(errors.New("no agent command: agentwatch acp [flags] -- CMD [ARGS…] (see --help)"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.ACP(&ao, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&ao.Cwd, "cwd", ".", "the session folder: the agent works here and may reach no file outside it")
	f.BoolVar(&ao.AllowWrite, "allow-write", false, "let the agent write files in the session folder (fs/write_text_file)")
	f.BoolVar(&ao.AllowTerminal, "allow-terminal", false, "let the agent run commands in the session folder (terminal/*)")
	f.StringVar(&ao.Permissions, "permissions", "", "answer permission requests without asking: allow-once or allow-always")
	f.StringVar(&ao.Prompt, "prompt", "", "send this prompt first (with --plain: run one turn and exit)")
	f.BoolVar(&ao.List, "list", false, "list the agent's sessions (session/list) and exit")
	f.StringVar(&ao.Load, "load", "", "replay session ID (session/load) with the replay controls")
	f.DurationVar(&ao.Pace, "pace", 50*time.Millisecond, "with --load: time between replayed updates")
	f.StringVar(&ao.StderrLog, "stderr-log", "", "keep the agent's standard error in FILE, appended to (default: only its last lines, in memory)")
	f.StringVar(&ao.Auth, "auth", "", "authentication method id to use when the agent asks for one")
	f.StringVar(&opts.Record, "record", "", "write every JSON-RPC line in both directions, with its time, to FILE (JSONL)")
	f.BoolVar(&opts.Plain, "plain", false, "print one line per change instead of the screen")
	f.StringVar(&opts.Layout, "layout", "auto", "screen layout: auto (side pane from 120 columns), side or sheet")
	imagesFlag(cmd, opts)
	return cmd
}
