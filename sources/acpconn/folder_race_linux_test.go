package acpconn

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// A folder inside the session folder swapped for a symlink that leads out,
// again and again while the agent reads and writes through it: whatever
// the timing, no read returns the outside file and no write reaches it.
// The check and the open are one step, so there is no moment between them
// to swap in.
func TestFolderSwappedSymlinkCannotEscape(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "file.txt")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	realDir, link, sub := filepath.Join(dir, "real"), filepath.Join(dir, "link"), filepath.Join(dir, "sub")
	if err := os.Mkdir(realDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(realDir, "file.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	f, err := NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(f.Root(), "sub", "file.txt")

	// The swapper exchanges the real folder and the link at "sub" in one
	// step, so "sub" is always there: a real folder when a path is
	// checked, perhaps the link when it is opened.
	if err := os.Rename(realDir, sub); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, sub, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	const tries = 10000
	escapedReads, served := 0, 0
	for range tries {
		text, err := f.Read(target, 0, 0)
		if err == nil {
			served++
			if text != "inside" && text != "written" { // the file inside, before or after a write
				escapedReads++
			}
		}
		_ = f.Write(target, "written")
	}
	stop.Store(true)
	wg.Wait()
	got, err := os.ReadFile(secret)
	if err != nil {
		t.Fatal(err)
	}
	if escapedReads > 0 || string(got) != "SECRET" {
		t.Fatalf("%d of %d reads returned the file outside, and it now holds %q (want it untouched)", escapedReads, tries, got)
	}
	t.Logf("%d of %d reads served the file inside", served, tries)
}

// A named pipe inside the folder is refused, for reading and for writing,
// without waiting for a writer or a reader that never comes: it is opened
// without blocking and then seen not to be a regular file.
func TestFolderRefusesNamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip(err)
	}
	f, err := NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := filepath.Join(f.Root(), "pipe")
	if _, err := f.Read(p, 0, 0); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read of a named pipe: %v, want not a regular file", err)
	}
	if err := f.Write(p, "x"); err == nil {
		t.Error("Write to a named pipe allowed")
	}
}
