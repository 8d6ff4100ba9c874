// Package syncbuf is a buffer one goroutine writes while a test reads it:
// a program's screen, a server's log, a subprocess's standard error.
package syncbuf

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer behind a lock; its zero value is empty and ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p, as bytes.Buffer.Write does.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Contains reports whether what was written so far contains sub.
func (s *Buffer) Contains(sub string) bool { return strings.Contains(s.String(), sub) }
