package app

import (
	"io"
	"os"
	"sync"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/claudegen"
	"github.com/agentwatch/agentwatch/sources"
)

// countingFile counts the bytes read from a file opened through a test's
// openHead; it seeks as the file does.
type countingFile struct {
	*os.File
	n  *int64
	mu *sync.Mutex
}

func (c countingFile) Read(b []byte) (int, error) {
	k, err := c.File.Read(b)
	c.mu.Lock()
	*c.n += int64(k)
	c.mu.Unlock()
	return k, err
}

// TestGlancedFolderList: the screen's list of a generated Claude folder
// has every session, with the title a fold gives it, and
// reads no more of a session than its head and tail.
func TestGlancedFolderList(t *testing.T) {
	dir := t.TempDir()
	sessions, err := claudegen.Write(dir, claudegen.Options{Sessions: 40, Projects: 4, Big: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	read := map[string]*int64{}
	a := New(&Options{})
	a.glanceAlways = true
	a.openHead = func(path string) (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		if read[path] == nil {
			read[path] = new(int64)
		}
		return countingFile{f, read[path], &mu}, nil
	}
	_, rows := listClaudeFolder(t, a, dir)
	if len(rows) != len(sessions) {
		t.Fatalf("%d rows, want %d", len(rows), len(sessions))
	}
	for _, s := range sessions {
		if got := rows[s.Path]; got != s.Title {
			t.Errorf("%s: title %q, want %q", s.ID, got, s.Title)
		}
		mu.Lock()
		n := read[s.Path]
		mu.Unlock()
		if n == nil || *n > min(s.Size, sources.GlanceHeadBytes+sources.GlanceTailBytes) {
			t.Errorf("%s (%d bytes): read %v", s.ID, s.Size, n)
		}
	}
}
