package sources

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// openIn counts the files under dir this process holds open now.
func openIn(dir string) int {
	fds, _ := os.ReadDir("/proc/self/fd")
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir+"/") {
			n++
		}
	}
	return n
}

// A followed folder never holds more of its files open than MaxOpen (and
// the one whose head it reads to judge it), and still follows every file:
// what they held, what is appended to each, and files that come later.
func TestFolderHoldsFewFilesOpen(t *testing.T) {
	const files, maxOpen = 120, 8
	dir := t.TempDir()
	first, _ := lines(0, 3)
	for i := range files {
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("log-%03d.jsonl", i)), first)
	}
	var most atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for ctx.Err() == nil {
			if n := int64(openIn(dir)); n > most.Load() {
				most.Store(n)
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	out, events := FollowFolder(ctx, dir, FolderOptions{MaxOpen: maxOpen})
	go func() {
		for range events {
		}
	}()
	got := map[string]int{}
	readUntil := func(what string, each int, n int) {
		t.Helper()
		for count := 0; count < n; {
			select {
			case b := <-out:
				before := got[b.Source]
				got[b.Source] += len(b.Records)
				if before < each && got[b.Source] >= each {
					count++
				}
			case <-ctx.Done():
				t.Fatalf("%s: %d files of %d read", what, len(got), n)
			}
		}
	}
	readUntil("the files there", 3, files)
	more, _ := lines(3, 5)
	for i := range files {
		appendFile(t, filepath.Join(dir, fmt.Sprintf("log-%03d.jsonl", i)), more)
	}
	readUntil("what was appended", 5, files)
	for i := range 10 {
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("new-%02d.jsonl", i)), first)
	}
	readUntil("the files that came", 3, 10)
	cancel()
	<-sampled
	if n := most.Load(); n > maxOpen+1 {
		t.Errorf("%d of the folder's files were open at once; want at most %d", n, maxOpen+1)
	}
}

func writeTestFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A file closed while idle that is replaced meanwhile is read anew, as a
// rotation: the new file from its top, after a restart.
func TestFolderParkedFileReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	first, _ := lines(0, 3)
	writeTestFile(t, path, first)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, events := FollowFolder(ctx, dir, FolderOptions{MaxOpen: 1})
	go func() {
		for range events {
		}
	}()
	next := func() (n int, restart bool) {
		t.Helper()
		select {
		case b := <-out:
			return len(b.Records), b.Restart
		case <-ctx.Done():
			t.Fatal("no batch in a minute")
		}
		return 0, false
	}
	if n, _ := next(); n != 3 {
		t.Fatalf("first batch: %d records", n)
	}
	for deadline := time.Now().Add(time.Minute); openIn(dir) > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle file is still open")
		}
	}
	if err := os.Rename(path, filepath.Join(t.TempDir(), "rotated.jsonl")); err != nil {
		t.Fatal(err)
	}
	second, _ := lines(10, 12)
	writeTestFile(t, path, second)
	restarted, read := false, 0
	for read < 2 {
		n, restart := next()
		restarted = restarted || restart
		read += n
	}
	if !restarted || read != 2 {
		t.Fatalf("the new file: restart %v, %d records; want a restart, then its 2 records", restarted, read)
	}
}
