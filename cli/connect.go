package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/sources"
)

// newConnectCommand is `agentwatch connect URL`: run an AG-UI agent over
// HTTP and watch it.
func newConnectCommand(a *app.App) *cobra.Command {
	opts := a.Options
	var input, thread, message string
	var headers []string
	var idle time.Duration
	cmd := &cobra.Command{
		Use:   "connect URL",
		Short: "Run an AG-UI agent over HTTP and watch its event stream",
		Long: `connect POSTs a RunAgentInput to an AG-UI endpoint and shows the
text/event-stream it answers with, live. The input is --input FILE, or one
built from --thread and --message. --header NAME:VALUE adds a request header
(for example an Authorization token).

Secrets stay where they were meant to go: header values are never logged,
shown or recorded (a malformed --header is named by its position, not its
text); a password or token in the URL (https://user:PASSWORD@host/) is
shown as xxxxx. A redirect is followed only within the URL's scheme, host
and port; a redirect to another origin is refused with an error naming it,
since it would carry the headers and the input there.

An error page the endpoint answers with is quoted cleaned (no escape
sequences or control characters) and cut short.

Until the first event comes, the title bar says the stream is waiting for
it. Without the screen (--plain, or output that is not a terminal), an
endpoint that sends nothing, not even a keep-alive, for --idle-timeout
(default 5m; 0 waits for ever) breaks the stream; the screen waits, and
says how long the stream has been quiet.

Exit status: 0 when the stream ends between events (or you quit); 2 when
the endpoint cannot be reached or refuses the run, and when the stream
breaks (the connection lost, closed in the middle of an event, or silent
past --idle-timeout): what arrived before is still shown, and recorded
with --record.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body := sources.RunInput(thread, message)
			if input != "" {
				b, err := os.ReadFile(input)
				if err != nil {
					return app.BadInput(fmt.Errorf("--input: %w", err))
				}
				body = b
			}
			hs, err := parseHeaders(headers)
			if err != nil {
				return app.BadInput(err)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			if idle < 0 {
				return app.BadInput(fmt.Errorf("--idle-timeout %v: want a duration of 0 or more (0 waits for ever)", idle))
			}
			return a.Connect(ctx, args[0], sources.ConnectOptions{Input: body, Headers: hs, IdleTimeout: idle})
		},
	}
	cmd.Flags().StringVar(&input, "input", "", "RunAgentInput JSON file to POST")
	cmd.Flags().StringVar(&thread, "thread", "", "thread id for a built input (default: a new one)")
	cmd.Flags().StringVar(&message, "message", "", "user message for a built input")
	cmd.Flags().StringArrayVar(&headers, "header", nil, "request header NAME:VALUE (repeatable)")
	cmd.Flags().DurationVar(&idle, "idle-timeout", app.DefaultConnectIdleTimeout, "without the screen, fail when the endpoint sends nothing for this long (0: wait for ever)")
	liveFlags(cmd, opts)
	return cmd
}

// parseHeaders reads the --header flags. A malformed one is named by its
// position only: its text may be a token typed without the colon
// ("Authorization Bearer T"), and an error must not print it.
func parseHeaders(headers []string) (map[string]string, error) {
	hs := map[string]string{}
	for i, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		k = strings.TrimSpace(k)
		if !ok || !validHeaderName(k) {
			return nil, fmt.Errorf("--header number %d (of %d): expected NAME:VALUE with a name of letters, digits and -, "+
				"such as \"Authorization: Bearer TOKEN\" (the text is not shown: it may hold a secret)", i+1, len(headers))
		}
		hs[k] = strings.TrimSpace(v)
	}
	return hs, nil
}

// validHeaderName reports whether k is an HTTP field name (a token).
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range []byte(k) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}
