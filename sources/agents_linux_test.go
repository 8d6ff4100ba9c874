package sources

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadCodexLocks holds one thread's lock as Codex does (flock) and
// leaves another's file unlocked, as Codex leaves it when it lets the
// thread go: only the held one is open. testdata's lock is such a file
// left behind.
func TestReadCodexLocks(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"held.lock", "left.lock", ".coordination.lock", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(dir, "held.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCodexLocks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got["held"] {
		t.Fatalf("open threads %v, want held alone", got)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadCodexLocks(dir); err != nil || len(got) != 0 {
		t.Fatalf("after unlocking: %v, %v", got, err)
	}
	if got, err := ReadCodexLocks(filepath.Join("..", "testdata", "codex", "thread-writer-locks")); err != nil || len(got) != 0 {
		t.Fatalf("testdata's lock left behind: %v, %v", got, err)
	}
}
