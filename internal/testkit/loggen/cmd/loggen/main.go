// Command loggen writes the generated AG-UI logs of package loggen, for
// trying agentwatch on logs of any size and any number of threads:
//
//	go run ./internal/testkit/loggen/cmd/loggen -n 100000 -threads 100 > server.jsonl
//	go run ./internal/testkit/loggen/cmd/loggen -n 100000 -threads 100 -dir threads/
//
// Without -dir it writes one log to standard output (JSON Lines, or a JSON
// array with -array); with -dir it writes one <threadId>.jsonl per thread.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

func main() {
	n := flag.Int("n", 10_000, "about `N` events in all")
	threads := flag.Int("threads", 1, "how many threads the log holds (1: the benchmarks' one-thread log)")
	seed := flag.Int64("seed", 1, "the random `SEED`; the same flags give the same bytes")
	array := flag.Bool("array", false, "write a JSON array instead of JSON Lines")
	dir := flag.String("dir", "", "write one JSON Lines file per thread into `DIR` instead of one log to standard output")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: loggen [-n N] [-threads T] [-seed SEED] [-array | -dir DIR]\n\nWrites a generated AG-UI 1.0 event log.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := write(*n, *threads, *seed, *array, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "loggen:", err)
		os.Exit(2)
	}
}

func write(n, threads int, seed int64, array bool, dir string) error {
	switch {
	case flag.NArg() > 0:
		return fmt.Errorf("unexpected argument %q (see -help)", flag.Arg(0))
	case n < 0 || threads < 1:
		return fmt.Errorf("-n %d -threads %d: want n ≥ 0 and at least one thread", n, threads)
	case dir != "" && array:
		return fmt.Errorf("-array and -dir: a thread folder holds JSON Lines files; drop one of them")
	case dir != "":
		return loggen.WriteThreadFolder(dir, n, threads, seed)
	}
	log := loggen.GenerateThreads(n, threads, seed)
	if array {
		log = loggen.ToArray(log)
	}
	_, err := os.Stdout.Write(log)
	return err
}
