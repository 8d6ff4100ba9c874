package app

import (
	"errors"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/replay"
	"github.com/agentwatch/agentwatch/window"
)

// changedError says a file no longer holds, at a record a read back
// folded, what the view folded there: it was rewritten in place, maybe
// keeping its head, its end and its length, which is all an index compares
// before a read (readIndex.same).
type changedError struct {
	path   string
	record int // from 1
}

func (e *changedError) Error() string {
	return fmt.Sprintf("%s was rewritten since the screen read it: its record %d is not what it was; open the file again to see it as it is now", e.path, e.record)
}

// check is how a read back for a view that folded had checks the records
// it folds: each must be what the view folded at its place, or the read
// stops with a changedError (nil had checks nothing). Every item and step
// a read back returns is made of records it folded, after the checkpoint
// it folds on from, so none is shown that the view did not read.
func (x *readIndex) check(had *window.Had) replay.Check {
	if had == nil {
		return nil
	}
	return func(at int, recs []model.Record) error {
		if k, changed := had.Changed(at, recs); changed {
			return &changedError{path: x.path, record: k + 1}
		}
		return nil
	}
}

// dropChanged lets the index go when err says the file changed under it,
// so that the next read indexes the file as it is now.
func (x *readIndex) dropChanged(err error) {
	if errors.As(err, new(*changedError)) {
		x.close()
	}
}
