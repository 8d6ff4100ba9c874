// Command threadmix writes the many-thread sample logs of
// testdata/threads/samples, on which the tests hold each thread's fold to
// the reference AG-UI client's fold of that thread alone (see
// testdata/threads/README.md). From the module root:
//
//	go run ./internal/testkit/threadmix
//
// It reads the one-thread samples of testdata/peer/samples, gives each its
// own thread id (its file name), and writes them combined two ways, each in
// the three containers the samples come in (JSON Lines, a JSON array, SSE):
//
//   - peer-concat.*: the samples one after another, whole;
//   - peer-interleave.*: the samples cut before each RUN_STARTED and taken
//     in turns (the first run of every sample, then every second run, …),
//     so that the threads of several-run samples alternate.
//
// It also writes two logs from package loggen: loggen-3000x5-seed1.jsonl
// (GenerateThreads(3000, 5, 1)) and loggen-3000x5-seed2.json
// (ToArray(GenerateThreads(3000, 5, 2))).
//
// Every event is kept byte for byte except the thread ids of RUN_STARTED,
// RUN_FINISHED and RUN_STARTED's input, and except that an event written
// over several lines is put on one line in JSON Lines (it keeps its lines
// in the array, and in SSE as one data line each). Before writing, each
// combined log is read back and split by thread as agentwatch splits it;
// threadmix fails unless every thread is exactly its sample's events.
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

func main() {
	peer := flag.String("peer", "testdata/peer/samples", "read the one-thread samples from `DIR`")
	out := flag.String("out", "testdata/threads/samples", "write the many-thread samples into `DIR`")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: threadmix [-peer DIR] [-out DIR]\n\nWrites many-thread AG-UI sample logs made of one-thread ones.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := write(*peer, *out); err != nil {
		fmt.Fprintln(os.Stderr, "threadmix:", err)
		os.Exit(2)
	}
}

// write makes every sample and writes it into out.
func write(peer, out string) error {
	samples, err := readSamples(peer)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, c := range containers {
		for _, m := range mixes {
			pieces := m.order(samples)
			log := c.write(pieces)
			if err := checkSplit(log, c, samples, pieces); err != nil {
				return fmt.Errorf("%s%s: %w", m.name, c.ext, err)
			}
			files[m.name+c.ext] = log
		}
	}
	files["loggen-3000x5-seed1.jsonl"] = loggen.GenerateThreads(3000, 5, 1)
	files["loggen-3000x5-seed2.json"] = loggen.ToArray(loggen.GenerateThreads(3000, 5, 2))

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := os.WriteFile(filepath.Join(out, name), files[name], 0o644); err != nil {
			return err
		}
		fmt.Printf("%s\t%d bytes\n", name, len(files[name]))
	}
	return nil
}
