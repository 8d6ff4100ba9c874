package sources

// This file bounds how many files a followed folder holds open. A folder
// of 10,000 logs under a limit of 256 open files (ulimit -n) showed the
// 4,086 its tails could open and ignored the rest without a word. Its
// tails now share a budget: a tail takes a place before it opens its
// file, and a tail that has read its file to the end closes it and gives
// the place back ("parks"); the folder's change events (or its poll) wake
// it, and it opens the file again and reads on from where it was, or
// from the top of a new file that took the path. A tail with no place
// waits for one.

import (
	"errors"
	"io/fs"
	"os"
)

// openBudget is the places a folder's tails take to hold a file open.
type openBudget struct{ places chan struct{} }

func newOpenBudget(n int) *openBudget {
	if n <= 0 {
		n = defaultMaxOpen()
	}
	return &openBudget{places: make(chan struct{}, n)}
}

// take takes a place for t's file unless it holds one; false (and t
// starved, to wait for one in its loop) when none is free.
func (t *tailer) take() bool {
	if t.budget == nil || t.holding {
		return true
	}
	select {
	case t.budget.places <- struct{}{}:
		t.holding, t.starved = true, false
		return true
	default:
		t.starved = true
		return false
	}
}

// give gives t's place back.
func (t *tailer) give() {
	if t.holding {
		<-t.budget.places
		t.holding = false
	}
}

// waitPlace is the channel a starved tail's loop waits on for a place
// (nil when it waits for none).
func (t *tailer) waitPlace() chan<- struct{} {
	if t.starved {
		return t.budget.places
	}
	return nil
}

// tookPlace is t's loop having got a place it waited for.
func (t *tailer) tookPlace() { t.holding, t.starved = true, false }

// park closes t's file when it is read to its end and is the file at the
// path, so that it holds no place while it is idle.
func (t *tailer) park() {
	if t.budget == nil || t.f == nil || t.more || t.detached || t.waiting {
		return
	}
	st, err := t.f.Stat()
	if err != nil {
		return
	}
	t.f.Close()
	t.f, t.parked = nil, st
	t.give()
}

// unpark opens a parked tail's file again, and tells whether the tail
// holds it: false when no place is free (it waits for one), or when
// another file, or none, is at the path now (the parked one was read to
// its end: the tail takes the new one as a rotation, or waits for one).
func (t *tailer) unpark() bool {
	if !t.take() {
		return false
	}
	f, err := os.Open(t.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.give()
		t.cannotOpen(err) // still parked: tried again at the next look
		return false
	}
	if err != nil {
		t.give()
		t.parked = nil
		t.gone = true // a file that comes at the path is a new one
		t.cannotOpen(err)
		return false
	}
	t.unopened = nil
	st, err := f.Stat()
	if err != nil || !os.SameFile(st, t.parked) {
		f.Close()
		t.give()
		t.parked = nil
		t.gone = true
		t.open(false) // a rotation: read from the new file's top
		return false
	}
	t.f, t.parked = f, nil
	return true
}
