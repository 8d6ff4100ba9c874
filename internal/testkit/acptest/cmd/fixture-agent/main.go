// Command fixture-agent is a scripted ACP v1 agent on stdio for testing ACP
// clients; run it with --help for its prompt commands and environment.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
)

func main() {
	flags := flag.NewFlagSet("fixture-agent", flag.ContinueOnError)
	flags.Usage = func() {} // --help prints Usage to stdout below
	if err := flags.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(os.Stdout, agent.Usage)
			return
		}
		fmt.Fprintln(os.Stderr, "fixture-agent: see --help")
		os.Exit(2)
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "fixture-agent: unexpected argument %q (it speaks ACP on stdio; see --help)\n", flags.Arg(0))
		os.Exit(2)
	}
	opts, err := agent.OptionsFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fixture-agent: %v\n", err)
		os.Exit(2)
	}
	// Logs go to stderr: stdout carries only JSON-RPC.
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil)).With("agent", "fixture")
	agent.Serve(opts, os.Stdin, os.Stdout)
}
