package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/serve"
	"github.com/agentwatch/agentwatch/sources"
)

// newServeCommand is `agentwatch serve SOURCE…`: the screen over SSH, one
// per viewer.
func newServeCommand(a *app.App) *cobra.Command {
	opts := a.Options
	cfg := serve.Config{Listen: serve.DefaultListen, MaxSessions: serve.DefaultMaxSessions,
		IdleTimeout: serve.DefaultIdleTimeout}
	var play bool
	var message, input string
	cmd := &cobra.Command{
		Use:   "serve [flags] [SOURCE…]",
		Short: "Show agentwatch's screen over SSH: a screen of its own for each viewer",
		Long: `serve is an SSH server: everyone who logs in with a public key listed in
--authorized-keys gets agentwatch's screen in their own terminal, with its
own size, selection, follow mode and replay position, and the same keys,
mouse and help. Connect with: ssh -t -p 2222 HOST

A SOURCE is what agentwatch opens: a FILE (followed as it grows, as tail
follows it), a folder DIR or a quoted glob (every log in it, and new ones),
- (standard input), a URL (an AG-UI agent, run once when the server starts:
--message or --input say what it is sent), a messages file or an ACP
recording (shown for review). Each source is read once, however many
watch; the server keeps a window of it, and a viewer who joins late takes
up where the others are and reads earlier records back from the source's
file when it scrolls to them. With no SOURCE
every viewer plays the embedded demo; with --play, the one SOURCE is
played at its recorded pace, a player for each viewer.

Viewers only watch: there is no prompt line and no permission dialog
(live ACP agents are not served; ACP recordings are).

Only public keys are accepted, and only those listed, without options, in
--authorized-keys (read again at every login); passwords and
keyboard-interactive logins are refused. The host key is made on first
start and kept (mode 0600), so viewers' known_hosts stay valid. As sshd's
StrictModes, serve refuses an --authorized-keys file others could write
and a host key others could read (or either in a folder others could
write). A session gets the screen and nothing else: no command,
subsystem, port, agent or X11 forwarding. Terminals larger than 480×160
get a screen of that size. serve listens on loopback (127.0.0.1) unless
--listen names another address. Past --max-sessions a connection is
closed at once; a viewer whose terminal takes nothing for a minute is
dropped. Logins, refusals and sessions are logged to standard error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cfg.HostKey == "" {
				p, err := serve.DefaultHostKey()
				if err != nil {
					return app.BadInput(err)
				}
				cfg.HostKey = p
			}
			if cfg.AuthorizedKeys == "" {
				p, err := serve.DefaultAuthorizedKeys()
				if err != nil {
					return app.BadInput(err)
				}
				cfg.AuthorizedKeys = p
			}
			so := serve.ShowOptions{Play: play, Connect: sources.ConnectOptions{Input: sources.RunInput("", message)}}
			if input != "" {
				b, err := os.ReadFile(input)
				if err != nil {
					return app.BadInput(err)
				}
				so.Connect.Input = b
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			cfg.Log = opts.Stderr
			cfg.Crashes = app.CrashReporter(opts.CacheDir)
			return app.BadInput(serve.Run(ctx, cfg, func() (serve.Show, error) {
				return serve.OpenShow(ctx, a, args, so)
			}))
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", cfg.Listen, "address to listen on (loopback by default; 0.0.0.0:2222 lets in other machines)")
	f.StringVar(&cfg.HostKey, "host-key", "", "the server's private key, made when missing (default: agentwatch/ssh_host_ed25519_key in the user's config directory)")
	f.StringVar(&cfg.AuthorizedKeys, "authorized-keys", "", "the viewers' public keys, one per line (default ~/.ssh/authorized_keys)")
	f.IntVar(&cfg.MaxSessions, "max-sessions", cfg.MaxSessions, "how many viewers may watch, and connections log in, at once (more are closed at once)")
	f.DurationVar(&cfg.IdleTimeout, "idle-timeout", cfg.IdleTimeout, "close a session after this long without a key or a click from its viewer")
	f.BoolVar(&play, "play", false, "play the one SOURCE at its recorded pace, a player for each viewer, instead of following it")
	f.StringVar(&message, "message", "", "for a URL SOURCE: the user message of the input sent")
	f.StringVar(&input, "input", "", "for a URL SOURCE: a RunAgentInput JSON file to send instead")
	layoutFlag(cmd, opts)
	return cmd
}
