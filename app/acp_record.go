package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/agentwatch/agentwatch/sources"
)

// acpRecorder is the file acp --record writes, one JSON-RPC line per
// Write. A write the operating system refuses (a full disk, a file size
// limit) is cut back, so the file ends after its last whole line, and
// stops the session: a recording asked for and silently cut is worse than
// no session at all.
type acpRecorder struct {
	path string
	stop func()

	mu    sync.Mutex
	f     *os.File
	size  int64 // where the last whole line ends
	lines int
	err   error // sticky: the first failure, naming the file
}

// createACPRecorder creates the recording at path, mode 0600, never over
// an existing file and only as a regular file; stop is called once if a
// write fails.
func createACPRecorder(path string, stop func()) (*acpRecorder, error) {
	f, err := sources.CreateOutput(path)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("--record: %s already exists (agentwatch does not overwrite a recording)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	return &acpRecorder{path: path, stop: stop, f: f}, nil
}

// Write appends one line, or cuts the file back and fails.
func (r *acpRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.f.Write(p)
	if err == nil {
		r.size += int64(n)
		r.lines++
		return n, nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named below, once
	}
	r.err = fmt.Errorf("--record: cannot write %s: %w; it keeps the %d lines recorded before, and the session was stopped", r.path, err, r.lines)
	if terr := r.f.Truncate(r.size); terr == nil {
		_, _ = r.f.Seek(r.size, io.SeekStart)
	}
	if r.stop != nil {
		r.stop()
	}
	return n, r.err
}

// close syncs and closes the file and returns the first failure.
func (r *acpRecorder) close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.err
	if serr := r.f.Sync(); serr != nil && err == nil {
		err = fmt.Errorf("--record: %s: %w", r.path, serr)
	}
	if cerr := r.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("--record: %s: %w", r.path, cerr)
	}
	return err
}
