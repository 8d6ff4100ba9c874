package app

import (
	"errors"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/window"
)

// stepReader reads a step back from its source's file as a view's window
// does (fileReaders).
func stepReader(a *App, file func(string) string) func(source, thread string, index int, callID string) (*model.Step, error) {
	readers := a.fileReaders(file)
	return func(source, thread string, index int, callID string) (*model.Step, error) {
		r := readers(source)
		if r == nil {
			return nil, errors.New(source + " is not a file")
		}
		return r.Step(thread, index, callID)
	}
}

// itemReader is how a view's window reads items of a source back, nil for
// a source that is not a file.
func itemReader(a *App, file func(string) string) func(source string) func(window.ItemsWanted) (window.ItemsRead, error) {
	readers := a.fileReaders(file)
	return func(source string) func(window.ItemsWanted) (window.ItemsRead, error) {
		r := readers(source)
		if r == nil {
			return nil
		}
		return r.Items
	}
}
