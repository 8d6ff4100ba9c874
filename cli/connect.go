package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/sources"
)

// newConnectCommand is `agentwatch connect URL`: run an AG-UI agent over
// HTTP and watch it.
func newConnectCommand(opts *app.Options) *cobra.Command {
	var input, thread, message string
	var headers []string
	cmd := &cobra.Command{
		Use:   "connect URL",
		Short: "Run an AG-UI agent over HTTP and watch its event stream",
		Long: `connect POSTs a RunAgentInput to an AG-UI endpoint and shows the
text/event-stream it answers with, live. The input is --input FILE, or one
built from --thread and --message. --header K:V adds a request header (for
example an Authorization token; headers are never logged or shown).`,
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
			hs := map[string]string{}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return app.BadInput(fmt.Errorf("--header %q: want NAME:VALUE", k))
				}
				hs[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return app.Connect(ctx, opts, args[0], sources.ConnectOptions{Input: body, Headers: hs})
		},
	}
	cmd.Flags().StringVar(&input, "input", "", "RunAgentInput JSON file to POST")
	cmd.Flags().StringVar(&thread, "thread", "", "thread id for a built input (default: a new one)")
	cmd.Flags().StringVar(&message, "message", "", "user message for a built input")
	cmd.Flags().StringArrayVar(&headers, "header", nil, "request header NAME:VALUE (repeatable)")
	liveFlags(cmd, opts)
	return cmd
}
