package otlptest

import (
	"bytes"
	"errors"
	"sync"
	"syscall"
)

// FullFile is a file on a disk that fills up after Room bytes: a write
// past it writes what fits and fails with ENOSPC, as a full disk does. It
// can be truncated, and is safe for concurrent use.
type FullFile struct {
	Room int
	mu   sync.Mutex
	buf  bytes.Buffer
}

// Write writes what fits.
func (f *FullFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := min(len(p), max(f.Room-f.buf.Len(), 0))
	f.buf.Write(p[:n])
	if n < len(p) {
		return n, syscall.ENOSPC
	}
	return n, nil
}

// Truncate cuts the file to size bytes.
func (f *FullFile) Truncate(size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if size < 0 || size > int64(f.buf.Len()) {
		return errors.New("truncate past the end")
	}
	f.buf.Truncate(int(size))
	return nil
}

// Close does nothing.
func (f *FullFile) Close() error { return nil }

// Bytes is what the file holds.
func (f *FullFile) Bytes() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return bytes.Clone(f.buf.Bytes())
}
