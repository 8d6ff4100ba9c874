package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
)

// sample is a one-thread log under its new thread id.
type sample struct {
	id string
	// events are the log's events as read, thread ids rewritten.
	events [][]byte
	// runs are the indices in events where each run starts (a
	// RUN_STARTED), the first made 0 so that events before any run go
	// with the first.
	runs []int
}

// readSamples reads every log in dir, in name order, each under its file
// name as thread id.
func readSamples(dir string) ([]sample, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		s, err := readSample(filepath.Join(dir, e.Name()), e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no samples in %s", dir)
	}
	return out, nil
}

func readSample(path, id string) (sample, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return sample{}, err
	}
	s := sample{id: id}
	r := sources.NewReader(bytes.NewReader(raw))
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sample{}, fmt.Errorf("read %s: %w", path, err)
		}
		ev := rec.Raw
		switch e := rec.Event.(type) {
		case *model.Unreadable:
			return sample{}, fmt.Errorf("%s: record #%d is unreadable: %s", path, rec.Seq, e.Reason)
		case *agui.RunStarted:
			s.runs = append(s.runs, len(s.events))
			ev, err = renameThread(ev, id)
		case *agui.RunFinished:
			ev, err = renameThread(ev, id)
		}
		if err != nil {
			return sample{}, fmt.Errorf("%s: record #%d: %w", path, rec.Seq, err)
		}
		s.events = append(s.events, ev)
	}
	if len(s.runs) == 0 {
		return sample{}, fmt.Errorf("%s: no RUN_STARTED, so no thread id to give it", path)
	}
	s.runs[0] = 0
	return s, nil
}

// renameThread returns ev with the value of its "threadId" member, and of
// the "threadId" member of its "input" object, replaced by id; every other
// byte stays as it is.
func renameThread(ev []byte, id string) ([]byte, error) {
	quoted, err := jsontext.AppendQuote(nil, id)
	if err != nil {
		return nil, err
	}
	var spans [][2]int64
	dec := jsontext.NewDecoder(bytes.NewReader(ev))
	var walk func(inInput bool) error
	walk = func(inInput bool) error {
		if _, err := dec.ReadToken(); err != nil { // '{'
			return err
		}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return err
			}
			switch {
			case name.String() == "threadId":
				v, err := dec.ReadValue()
				if err != nil {
					return err
				}
				end := dec.InputOffset()
				spans = append(spans, [2]int64{end - int64(len(v)), end})
			case name.String() == "input" && !inInput && dec.PeekKind() == '{':
				if err := walk(true); err != nil {
					return err
				}
			default:
				if err := dec.SkipValue(); err != nil {
					return err
				}
			}
		}
		_, err := dec.ReadToken() // '}'
		return err
	}
	if dec.PeekKind() != '{' {
		return nil, fmt.Errorf("event is not an object")
	}
	if err := walk(false); err != nil {
		return nil, err
	}
	if len(spans) == 0 {
		return nil, fmt.Errorf("no threadId to rename")
	}
	out := make([]byte, 0, len(ev)+len(spans)*len(quoted))
	last := int64(0)
	for _, sp := range spans { // in input order
		out = append(out, ev[last:sp[0]]...)
		out = append(out, quoted...)
		last = sp[1]
	}
	return append(out, ev[last:]...), nil
}
