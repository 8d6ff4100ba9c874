package cli

import (
	"context"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/agentwatch/agentwatch/app"
)

// newOTLPCommand is `agentwatch otlp`: an OTLP receiver, shown live.
func newOTLPCommand(a *app.App) *cobra.Command {
	opts := a.Options
	o := &app.OTLPOptions{}
	cmd := &cobra.Command{
		Use:   "otlp",
		Short: "Receive OpenTelemetry (OTLP over HTTP and gRPC) from agents and watch it live",
		Long: `otlp is an OpenTelemetry receiver. Agents that export OpenTelemetry — Claude
Code and Codex (their log events), and agent frameworks that follow the
OpenTelemetry GenAI or OpenInference conventions (their spans) — send to it
as they would to a Collector, and what they do shows as it arrives: a
thread per conversation or session (per service and host), prompts and
answers as messages, each tool call as a step, tool decisions as
permission rows, token usage and API errors as rows of their own.

It takes OTLP/HTTP (POST /v1/traces, /v1/logs; protobuf or JSON; gzip) on
--listen and OTLP/gRPC on --grpc-listen ("" turns either off); metrics are
accepted and not kept. An address that is not loopback needs
--token-file: exporters then send "Authorization: Bearer TOKEN". A fleet
of machines reaches one agentwatch through an OpenTelemetry Collector; see
docs/OTEL.md for the mapping and a Collector configuration.

What a sender can make it hold is bounded: the token is checked before a
body is read; at most 4 requests are in flight at once (others are asked
to retry: 429), a body is at most --max-body before and after gzip, JSON
nests at most 1,000 levels, a request holds at most 65,536 spans or log
records of at most 1,024 attributes each, and at most 10,000 conversations
are shown. Refusals are counted beside the requests taken. A request sent
again once taken changes nothing.

--record FILE keeps every request as OTLP/JSON lines (the Collector's file
exporter format), which agentwatch opens, and replays at its recorded
pace, like any log. A request is answered success only once it is in the
file; a write that fails stops the receiver, saying what the file keeps.
--plain prints one line per change until ctrl+c.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return a.ReceiveOTLP(ctx, o)
		},
	}
	cmd.Flags().StringVar(&o.HTTP, "listen", "127.0.0.1:4318", "address for OTLP/HTTP (\"\" for none)")
	cmd.Flags().StringVar(&o.GRPC, "grpc-listen", "127.0.0.1:4317", "address for OTLP/gRPC (\"\" for none)")
	cmd.Flags().StringVar(&o.TokenFile, "token-file", "", "file holding the bearer token exporters must send (required off loopback)")
	cmd.Flags().StringVar(&o.Record, "record", "", "keep every request in FILE as OTLP/JSON lines (created 0600; an existing file is refused)")
	cmd.Flags().Int64Var(&o.MaxBody, "max-body", 0, "largest request body in bytes, after gzip (default 16 MiB)")
	plainFlag(cmd, opts, "print one line per change (message, step, run, problem) instead of the screen")
	layoutFlag(cmd, opts)
	return cmd
}
