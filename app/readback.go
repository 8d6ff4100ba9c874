package app

import (
	"fmt"
	"io"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// readBack returns what the screen calls to read a step whose content it
// shed back from the source's file: the file is read again from its start
// and the step's thread folded on its own until the step is there and
// done. It is nil for a source that is not a file (standard input, a
// stream without --record), whose shed content is gone.
func readBack(opts *Options, file func(source string) string) func(source, thread string, index int, callID string) (*model.Step, error) {
	return func(source, thread string, index int, callID string) (*model.Step, error) {
		path := file(source)
		if path == "" {
			return nil, fmt.Errorf("%s is not a file: what was dropped is gone (--record FILE keeps a stream)", source)
		}
		fo, err := opts.FoldOptions()
		if err != nil {
			return nil, err
		}
		in, err := sources.Open(path)
		if err != nil {
			return nil, err
		}
		defer in.Close()
		r := sources.NewReader(in)
		ts := fold.NewThreads(fo)
		var found *model.Step
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			for _, u := range ts.Apply(source, rec) {
				th := u.Thread
				if th.ID != thread || index >= len(th.Fold.Steps()) {
					continue
				}
				s := th.Fold.Steps()[index]
				if s.ToolCallID != callID {
					return nil, fmt.Errorf("step %d of thread %s is another tool call in the file now (it was truncated or rewritten)", index+1, thread)
				}
				found = s
			}
			if found != nil && found.Status.Done() {
				break
			}
		}
		if found == nil {
			return nil, fmt.Errorf("step %d of thread %s is no longer in %s", index+1, thread, path)
		}
		c := *found
		return &c, nil
	}
}
