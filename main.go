// Command agentwatch watches what AI agents do: it reads AG-UI event logs
// and ACP sessions, folds them into messages, steps and runs, and shows
// them. Run it with no arguments to see the embedded demo recording; see
// --help for the rest, and docs/ARCHITECTURE.md for how it is built.
package main

import (
	"os"

	"github.com/agentwatch/agentwatch/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
