package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFollowFolderIgnore passes over what Ignore names without a word,
// there at the start or created later, while the rest is followed and
// skipped as ever.
func TestFollowFolderIgnore(t *testing.T) {
	dir := t.TempDir()
	s, want := lines(0, 2)
	session := filepath.Join(dir, "s1.jsonl")
	own := filepath.Join(dir, "s1") // the session's own folder
	other := filepath.Join(dir, "old")
	appendFile(t, session, s)
	for _, d := range []string{own, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ignore := func(path string) bool {
		return path == own || strings.HasPrefix(filepath.Base(path), "agent-")
	}
	const poll = 50 * time.Millisecond
	l, _ := startFolder(t, dir, FolderOptions{Poll: poll, Ignore: ignore})
	l.waitRecords(t, session, want)
	agent := filepath.Join(dir, "agent-1.jsonl")
	appendFile(t, agent, s)
	later := filepath.Join(dir, "s2.jsonl")
	appendFile(t, later, s)
	l.waitRecords(t, later, want)
	l.waitFor(t, "the other folder skipped", func(l *folderLog) bool { return len(l.skipped(other)) > 0 })
	settle(poll)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.events {
		if e.Path == own || e.Path == agent {
			t.Errorf("an ignored file made news: %+v", e)
		}
	}
	if len(l.recs[agent]) > 0 {
		t.Errorf("an ignored file was followed")
	}
}
