// Command demogen writes the demo recording agentwatch plays when started
// without a file (assets/demo.jsonl): a recorded AG-UI 1.0 run of a coding
// agent, one event per line.
//
// The story: a developer asks the agent to fix a failing Go test in
// "tempo", a small focus-timer project (a Go server and a Kotlin desktop
// app). The agent looks around, runs the tests (they fail), reads the parser
// and its history, reasons about the cause, checks the Go documentation (a
// screenshot), takes a screenshot of the app showing the bug, switches from
// plan to code mode, edits the parser (a unified diff), deletes a stale copy
// of it, moves a misplaced Kotlin test, runs both test suites again (they
// pass), takes screenshots of the fixed dashboard and app, and answers. A
// second run, linked to the first by parentRunId, handles the user's
// follow-up: more test cases (one fails), one more fix, a commit.
//
// The output is deterministic: the same program gives the same bytes, and
// demo_test.go checks that the committed file is exactly what the generator
// writes. After changing the generator, regenerate the file with
//
//	go generate ./internal/testkit/demogen
//
// which runs the directive below, or, from the module root,
//
//	go run ./internal/testkit/demogen > assets/demo.jsonl
//
//go:generate go run . -o ../../../assets/demo.jsonl
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "", "write the recording to `FILE` instead of standard output")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: demogen [-o FILE]\n\nWrites agentwatch's demo recording (AG-UI JSON Lines).")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	data := Generate()
	var err error
	if *out == "" {
		_, err = os.Stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "demogen:", err)
		os.Exit(1)
	}
}
