package app

import (
	"bytes"
	"context"
	"os"

	"fmt"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"io"
	"strings"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// FoldThreads reads a whole source and folds each of its threads by its
// own fold: a file may hold any number of threads, and a folder holds a
// file (or more) per thread. A source that cannot be read is an
// InputError; a folder's files that cannot be read are skipped, and the
// caller reports src.Skipped and the returned notes.
func (a *App) FoldThreads(src *Source) (*fold.Threads, []Skipped, error) {
	opts := a.Options
	fo, err := opts.FoldOptions()
	if err != nil {
		return nil, nil, err
	}
	tuneForWholeRead(src)
	ts := fold.NewThreads(fo)
	if src.Kind != KindFolder {
		events := 0
		err := readInto(opts, src, func(recs []model.Record) {
			events += countEvents(recs)
			ts.Apply(src.Name(), recs...)
		})
		if err == nil && events == 0 {
			err = notKnown(src)
		}
		return ts, nil, err
	}
	members, skipped := src.Members()
	for _, m := range members {
		if err := readInto(opts, m, func(recs []model.Record) { ts.Apply(m.Name(), recs...) }); err != nil {
			skipped = append(skipped, Skipped{Path: m.Arg, Reason: err.Error()})
		}
	}
	return ts, skipped, nil
}

// readInto hands every record of a one-file source to apply, in batches.
func readInto(opts *Options, src *Source, apply func([]model.Record)) error {
	if err := withToolKinds(opts, src); err != nil {
		return err
	}
	if src.Kind == KindMessages || src.Kind == KindOTLP {
		apply(src.Records)
		return nil
	}
	if src.Kind == KindStdin {
		fo, err := opts.FoldOptions()
		if err != nil {
			return err
		}
		if recs, ok, err := stdinOTLP(opts, fo.ToolKinds); ok {
			apply(recs)
			return err
		}
	}
	in, closeIn, err := src.Open(opts.Stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	// Reading and decoding run beside the fold (sources.Batches).
	batches, wait := sources.Batches(context.Background(), sources.NewReader(in), 512)
	for batch := range batches {
		apply(batch)
	}
	if err := wait(); err != nil {
		return BadInput(fmt.Errorf("read %s: %w", src.Name(), err))
	}
	return nil
}

// SelectThread finds the thread --thread names: by id, or by
// "(no thread id)" for a source that never names one. An id no thread has,
// or one that two files share, is an InputError that says what there is.
func SelectThread(ts *fold.Threads, src *Source, id string) (*fold.Thread, error) {
	var found []*fold.Thread
	for _, th := range ts.List() {
		if th.ID == id || th.Key() == id {
			found = append(found, th)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var ids []string
		for i, th := range ts.List() {
			if i == 10 {
				ids = append(ids, fmt.Sprintf("and %d more", ts.Len()-10))
				break
			}
			ids = append(ids, OneLine(th.Key()))
		}
		if len(ids) == 0 {
			return nil, BadInput(fmt.Errorf("--thread %s: %s holds no thread", id, src.Name()))
		}
		return nil, BadInput(fmt.Errorf("--thread %s: %s has no such thread; it has %s (agentwatch threads %s lists them)", id, src.Name(), strings.Join(ids, ", "), src.Arg))
	}
	var files []string
	for _, th := range found {
		files = append(files, OneLine(th.Source))
	}
	return nil, BadInput(fmt.Errorf("--thread %s: the thread is in %d files (%s): open one of them", id, len(found), strings.Join(files, ", ")))
}

// NoteSkipped tells on w what a folder held that was not opened.
func NoteSkipped(w io.Writer, skipped []Skipped) {
	for _, s := range skipped {
		fmt.Fprintf(w, "agentwatch: skipped %s: %s\n", OneLine(s.Path), OneLine(s.Reason))
	}
}

// ThreadsProblems counts the diagnostics of every thread.
func ThreadsProblems(ts *fold.Threads) int {
	n := 0
	for _, th := range ts.List() {
		n += len(th.Fold.Diagnostics())
	}
	return n
}

// countEvents counts the records that are events of a protocol agentwatch
// knows, of a known type.
func countEvents(recs []model.Record) int {
	n := 0
	for _, r := range recs {
		if r.Proto != model.ProtoAGUI || agui.Known(r.Event.EventType()) {
			n++
		}
	}
	return n
}

// resembleBytes is how much of a file is read to say what it looks like.
const resembleBytes = 64 << 10

// notKnown is the error for a file with content that gave no event: it
// says what the file looks like instead of showing an empty result. An
// empty file (a log about to be written), standard input and the demo
// give none.
func notKnown(src *Source) error {
	if src.Kind != KindEventLog || !src.Regular || src.Size == 0 {
		return nil
	}
	f, err := os.Open(src.Arg)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, resembleBytes)
	k, _ := io.ReadFull(f, head)
	if len(bytes.TrimSpace(head[:k])) == 0 {
		return nil
	}
	like := sources.Resembles(src.Arg, head[:k])
	if like == "" {
		return BadInput(fmt.Errorf("%s is not an event log agentwatch knows: nothing in it is an event", src.Name()))
	}
	return BadInput(fmt.Errorf("%s is not an event log agentwatch knows; it looks like %s", src.Name(), like))
}
