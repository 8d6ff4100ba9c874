// Command threadsplit cuts an AG-UI event log into one log per thread, by
// the rule agentwatch folds threads with (fold.Threads: RUN_STARTED and
// RUN_FINISHED name the thread, the events between belong to the open run,
// events before the first run to the first thread). It exists so that a
// thread of a many-thread log can be handed to another tool, such as the
// reference AG-UI client, exactly as agentwatch sees it:
//
//	go run ./internal/testkit/threadsplit -out DIR FILE
//
// It reads FILE as the headless commands do (JSON Lines, a JSON array or
// SSE), routes every record with fold.Threads.Route, and writes
// DIR/<index>-<threadId>.json for each thread in order of first appearance
// (index from 00): a JSON array of the thread's events, each byte for byte
// as it was read, so that events spread over several lines survive. On
// standard output it prints one line per thread: index, thread id and
// number of events, tab-separated.
//
// It refuses a log with unreadable input, ACP records, or a thread id that
// cannot be a file name (empty, or holding a path separator), rather than
// write parts that are not the thread.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

func main() {
	out := flag.String("out", "", "write the parts into `DIR` (created if need be)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: threadsplit -out DIR FILE\n\nWrites one JSON array per thread of an AG-UI log, as agentwatch splits it.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := split(flag.Arg(0), *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "threadsplit:", err)
		os.Exit(2)
	}
}

// part is one thread's events as read.
type part struct {
	id     string
	events [][]byte
}

// split writes the parts of the log at path into dir and lists them on w.
func split(path, dir string, w io.Writer) error {
	parts, err := route(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	width := max(2, len(strconv.Itoa(len(parts)-1)))
	for i, p := range parts {
		name := fmt.Sprintf("%0*d-%s.json", width, i, p.id)
		if err := os.WriteFile(filepath.Join(dir, name), array(p.events), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "%0*d\t%s\t%d\n", width, i, p.id, len(p.events))
	}
	return nil
}

// route reads the log at path and gives each record to its thread.
func route(path string) ([]part, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ts := fold.NewThreads(fold.Options{})
	at := map[*fold.Thread]int{} // index in parts
	var parts []part
	r := sources.NewReader(f)
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if u, ok := rec.Event.(*model.Unreadable); ok {
			return nil, fmt.Errorf("%s: record #%d is unreadable (%s); fix the log first", path, rec.Seq, u.Reason)
		}
		if rec.Proto != model.ProtoAGUI {
			return nil, fmt.Errorf("%s: record #%d is not an AG-UI event; threadsplit cuts AG-UI logs only", path, rec.Seq)
		}
		th := ts.Route(path, &rec)
		i, ok := at[th]
		if !ok {
			i = len(parts)
			at[th] = i
			parts = append(parts, part{})
		}
		parts[i].events = append(parts[i].events, rec.Raw)
	}
	// A thread is named by its first run, which may come after its first
	// record, so ids are read once everything is routed.
	for th, i := range at {
		if th.ID == "" || strings.ContainsAny(th.ID, `/\`) || th.ID == "." || th.ID == ".." {
			return nil, fmt.Errorf("%s: thread %d has id %q, which cannot name a file", path, i, th.ID)
		}
		parts[i].id = th.ID
	}
	return parts, nil
}

// array writes events as one JSON array, one event after another as read.
func array(events [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, ev := range events {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(ev)
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}
