// Command hostile writes one of the inputs of package hostile to standard
// output: go run ./internal/testkit/hostile/cmd/hostile -kind message -n 50000000
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
)

func main() {
	kind := flag.String("kind", "message", "what to write: "+strings.Join(hostile.Kinds, ", "))
	n := flag.Int("n", 1_000_000, "bytes of text (message, output) or how many calls, deltas or patches")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	err := hostile.Write(w, *kind, *n)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(2)
	}
}
